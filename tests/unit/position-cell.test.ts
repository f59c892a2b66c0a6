import ngeohash from "ngeohash";
import { describe, expect, it } from "vitest";
import { between, cellOf, compassPoint, publicPositionFields, relativeTo, visibleCell } from "../../worker/features/members/position-cell";

const owner = (latitude: number | null, longitude: number | null, extra: Partial<{ showPosition: boolean; closed: boolean; blocked: boolean }> = {}) => ({
  latitude,
  longitude,
  showPosition: true,
  closed: false,
  blocked: false,
  ...extra,
});

describe("position cells (README \"Cells, not positions\")", () => {
  it("snaps every point of a cell to the same centre, 6 geohash characters", () => {
    const cell = cellOf(35.6581234, 139.7016789)!;
    expect(cell.geohash).toBe("xn76fg");
    const [minLat, minLng, maxLat, maxLng] = ngeohash.decode_bbox(cell.geohash);
    for (const [lat, lng] of [[minLat + 1e-6, minLng + 1e-6], [maxLat - 1e-6, maxLng - 1e-6], [(minLat + maxLat) / 2, minLng + 1e-6]]) {
      expect(cellOf(lat!, lng!)).toEqual(cell);
    }
    expect(cell.latitude).toBeGreaterThan(minLat);
    expect(cell.latitude).toBeLessThan(maxLat);
    expect(String(cell.latitude).split(".")[1]!.length).toBeLessThanOrEqual(5);
    expect(cellOf(91, 0)).toBeNull();
    expect(cellOf(null, 10)).toBeNull();
  });

  it("shows nothing unless opted in, open and not suspended", () => {
    expect(visibleCell(owner(10, 10))).not.toBeNull();
    expect(visibleCell(owner(10, 10, { showPosition: false }))).toBeNull();
    expect(visibleCell(owner(10, 10, { closed: true }))).toBeNull();
    expect(visibleCell(owner(10, 10, { blocked: true }))).toBeNull();
    expect(visibleCell(owner(null, null))).toBeNull();
    // A visitor gets no position at all; another member the cell.
    expect(publicPositionFields(owner(10, 10), false)).toEqual({ geohash: null, latitude: null, longitude: null });
    expect(publicPositionFields(owner(10, 10), true)).toEqual(cellOf(10, 10));
  });

  it("gives whole kilometres (at least 1) and eight compass points between cells", () => {
    expect([0, 22.4, 22.6, 67.6, 90, 180, 270, 337.6, 359.9, -45].map(compassPoint)).toEqual(["N", "N", "NE", "E", "E", "S", "W", "N", "N", "NW"]);
    const a = cellOf(35.0, 139.0)!;
    expect(between(a, a)).toEqual({ distanceKm: 1, bearing: null });
    const b = cellOf(25.0, 121.5)!;
    const far = between(a, b);
    expect(Number.isInteger(far.distanceKm)).toBe(true);
    expect(far.bearing).toBe("SW");
    expect(relativeTo({ latitude: 35.0, longitude: 139.0 }, owner(25.0, 121.5))).toEqual(far);
    expect(relativeTo(null, owner(25.0, 121.5))).toEqual({ distanceKm: null, bearing: null });
    expect(relativeTo({ latitude: 35.0, longitude: 139.0 }, owner(25.0, 121.5, { showPosition: false }))).toEqual({ distanceKm: null, bearing: null });
  });
});
