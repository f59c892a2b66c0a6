import { env } from "cloudflare:test";
import ngeohash from "ngeohash";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { block } from "./social-support";

/**
 * README "Cells, not positions": a member's exact position leaves the server only to that member. Everyone else
 * gets, at most, the centre of the member's ~1 km cell, whole kilometres and one of eight compass points, and only
 * after the member opted in. Checked on the raw text of every answer, not only on parsed fields.
 */

const EXACT = { latitude: 35.6581234, longitude: 139.7016789 };
const GEOHASH_9 = ngeohash.encode(EXACT.latitude, EXACT.longitude, 9);
/** What must never appear in an answer to anyone but the owner. */
const NEEDLES = ["35.658123", "139.701678", "35.6581", "139.7016", GEOHASH_9, GEOHASH_9.slice(0, 7)];
const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

const put = (m: Member, latitude: number, longitude: number) =>
  call("PUT", `/private/core/geolocation/${m.memberId}`, { as: m, body: { latitude, longitude } });
const patch = (m: Member, body: unknown) => call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body });

/** The raw body of an API call, as it leaves the worker. */
async function raw(path: string, as?: Member | null): Promise<{ status: number; text: string }> {
  const response = await fetchWorker(`/api/v7${path}`, { headers: as ? as.headers : {} });
  return { status: response.status, text: await response.text() };
}

function expectNoExactPosition(text: string, where: string) {
  for (const needle of NEEDLES) expect(text, `${where} carries ${needle}`).not.toContain(needle);
}

async function locatedMember(latitude: number, longitude: number, options: { showPosition?: boolean; project?: string } = {}) {
  const m = await signUp(options.project);
  expectOk(await patch(m, { nickname: `m${m.memberNo}` }));
  expectOk(await put(m, latitude, longitude));
  if (options.showPosition ?? true) expectOk(await patch(m, { showPosition: true }));
  return m;
}

/** Every surface that shows a member's position to someone else. */
const surfaces = (owner: Member) => [
  `/public/core/profiles/SMP/member/${owner.memberNo}`,
  `/public/core/profiles/SMP/page/${owner.memberNo}`,
  `/private/core/profiles/SMP/member/${owner.memberNo}`,
  `/private/core/profiles/SMP/page/${owner.memberNo}`,
  `/private/core/profiles/${owner.memberId}`,
  `/private/core/geolocation/SMP/nearby?pageSize=100`,
];

describe("what others get of a member's position", () => {
  it("a visitor, another member, a blocked member either way and another tenant never get the exact digits or fine geohash", async () => {
    const owner = await locatedMember(EXACT.latitude, EXACT.longitude);
    const other = await locatedMember(35.7, 139.8);
    const blockedByOwner = await locatedMember(35.66, 139.71);
    const blocker = await locatedMember(35.65, 139.69);
    const abc = await locatedMember(35.6581, 139.7016, { project: "ABC" });
    await block(owner, blockedByOwner);
    await block(blocker, owner);

    for (const path of surfaces(owner)) {
      for (const [who, as] of [["visitor", null], ["other", other], ["blocked", blockedByOwner], ["blocker", blocker], ["other tenant", abc]] as const) {
        if (path.startsWith("/private") && !as) continue;
        const { text } = await raw(path, as);
        expectNoExactPosition(text, `${path} as ${who}`);
      }
    }
    // Blocked either way and another tenant: not found, not merely without a position.
    for (const as of [blockedByOwner, blocker, abc]) expect((await raw(`/private/core/profiles/SMP/member/${owner.memberNo}`, as)).status).toBe(404);
    for (const as of [blockedByOwner, blocker]) {
      const near = expectOk(await call("GET", "/private/core/geolocation/SMP/nearby?pageSize=100", { as }));
      expect(near.items.map((i: any) => i.profile.simpleCode)).not.toContain(owner.memberNo);
    }

    // The other member does see the owner: as a cell with whole kilometres and a compass point.
    const seen = expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: other }));
    const cell = ngeohash.encode(EXACT.latitude, EXACT.longitude, 6);
    const centre = ngeohash.decode(cell);
    expect(seen.geohash).toBe(cell);
    expect(seen.latitude).toBeCloseTo(centre.latitude, 5);
    expect(seen.longitude).toBeCloseTo(centre.longitude, 5);
    expect(Number.isInteger(seen.distanceKm)).toBe(true);
    expect(seen.distanceKm).toBeGreaterThanOrEqual(1);
    expect(COMPASS).toContain(seen.bearing);
    const item = expectOk(await call("GET", "/private/core/geolocation/SMP/nearby?pageSize=100", { as: other })).items.find((i: any) => i.profile.simpleCode === owner.memberNo);
    expect(item).toMatchObject({ latitude: seen.latitude, longitude: seen.longitude, distanceKm: seen.distanceKm, bearing: seen.bearing });
    expect(Object.keys(item).sort()).toEqual(["bearing", "distanceKm", "latitude", "longitude", "profile", "rank"]);

    // A visitor (logged out) gets no position at all, not even the cell.
    for (const path of [`/public/core/profiles/SMP/member/${owner.memberNo}`, `/public/core/profiles/SMP/page/${owner.memberNo}`]) {
      const { text } = await raw(path, null);
      expect(text).not.toContain(cell);
      const visitor = JSON.parse(text).info;
      expect(visitor.profile ?? visitor).toMatchObject({ geohash: null, latitude: null, longitude: null, distanceKm: null, bearing: null });
    }
  });

  it("the owner still gets their own exact position", async () => {
    const owner = await locatedMember(EXACT.latitude, EXACT.longitude);
    expect(expectOk(await call("GET", `/private/core/profiles/${owner.memberId}`, { as: owner }))).toMatchObject({ ...EXACT, geohash: GEOHASH_9, showPosition: true });
    expect(expectOk(await call("GET", `/private/core/geolocation/${owner.memberId}`, { as: owner }))).toEqual({ ...EXACT, geohash: GEOHASH_9, showPosition: true });
  });

  it("the cell is stable across calls and moves only when the member moves to another cell", async () => {
    const owner = await locatedMember(EXACT.latitude, EXACT.longitude);
    const viewer = await locatedMember(35.7, 139.8);
    const view = async () => {
      const p = expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: viewer }));
      return { geohash: p.geohash, latitude: p.latitude, longitude: p.longitude, distanceKm: p.distanceKm, bearing: p.bearing };
    };
    const first = await view();
    for (let i = 0; i < 5; i++) expect(await view()).toEqual(first);

    // Moving inside the cell (to the opposite corner) changes nothing others see.
    const [minLat, minLng, maxLat, maxLng] = ngeohash.decode_bbox(first.geohash);
    const inside = EXACT.latitude - minLat < maxLat - EXACT.latitude ? maxLat - 0.00001 : minLat + 0.00001;
    const insideLng = EXACT.longitude - minLng < maxLng - EXACT.longitude ? maxLng - 0.00001 : minLng + 0.00001;
    expectOk(await put(owner, inside, insideLng));
    expect(await view()).toEqual(first);

    // Moving to another cell moves the cell.
    expectOk(await put(owner, EXACT.latitude + 0.02, EXACT.longitude));
    const moved = await view();
    expect(moved.geohash).not.toBe(first.geohash);
    expect(moved.geohash).toBe(ngeohash.encode(EXACT.latitude + 0.02, EXACT.longitude, 6));
  });

  it("a viewer moving around learns nothing finer than the cell: distance and bearing are between cells", async () => {
    const owner = await locatedMember(EXACT.latitude, EXACT.longitude);
    const viewer = await locatedMember(35.7, 139.8);
    const seen = new Set<string>();
    const viewerCell = ngeohash.encode(35.7, 139.8, 6);
    const [minLat, minLng, maxLat, maxLng] = ngeohash.decode_bbox(viewerCell);
    // Anywhere inside the viewer's own cell, the answer is the same.
    for (const [lat, lng] of [[minLat + 0.0001, minLng + 0.0001], [maxLat - 0.0001, maxLng - 0.0001], [minLat + 0.0001, maxLng - 0.0001], [35.7, 139.8]]) {
      expectOk(await put(viewer, lat!, lng!));
      const p = expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: viewer }));
      seen.add(JSON.stringify([p.distanceKm, p.bearing]));
    }
    expect(seen.size).toBe(1);
  });

  it("members who did not opt in (the default), closed profiles and muted members are shown nowhere", async () => {
    const viewer = await locatedMember(-20.0, -120.0);
    const shy = await locatedMember(-20.001, -120.001, { showPosition: false });
    const closed = await locatedMember(-20.002, -120.002);
    expectOk(await patch(closed, { closed: true }));
    const muted = await locatedMember(-20.003, -120.003);
    expectOk(await call("POST", "/private/core/mutes", { as: viewer, body: { targetMemberNo: muted.memberNo } }));
    const shown = await locatedMember(-20.004, -120.004);

    // A new member's setting is off.
    expect(expectOk(await call("GET", `/private/core/profiles/${shy.memberId}`, { as: shy })).showPosition).toBe(false);

    const near = expectOk(await call("GET", "/private/core/geolocation/SMP/nearby?pageSize=100", { as: viewer }));
    const codes = near.items.map((i: any) => i.profile.simpleCode);
    expect(codes).toContain(shown.memberNo);
    for (const hidden of [shy, closed, muted]) expect(codes).not.toContain(hidden.memberNo);

    for (const hidden of [shy, closed]) {
      for (const as of [viewer, null]) {
        const p = expectOk(await call("GET", `/${as ? "private" : "public"}/core/profiles/SMP/member/${hidden.memberNo}`, { as }));
        // Null, or absent altogether (a closed profile answers its stub).
        for (const field of ["geohash", "latitude", "longitude", "distanceKm", "bearing"]) expect(p[field] ?? null, field).toBeNull();
      }
    }

    // Opting out again takes the member off at once.
    expectOk(await patch(shown, { showPosition: false }));
    const after = expectOk(await call("GET", "/private/core/geolocation/SMP/nearby?pageSize=100", { as: viewer }));
    expect(after.items.map((i: any) => i.profile.simpleCode)).not.toContain(shown.memberNo);
    expect(expectOk(await call("GET", `/private/core/profiles/SMP/member/${shown.memberNo}`, { as: viewer })).latitude).toBeNull();
  });

  it("refuses out-of-range coordinates and a malformed setting, changing nothing", async () => {
    const m = await locatedMember(EXACT.latitude, EXACT.longitude);
    const before = expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }));
    for (const [latitude, longitude] of [[90.0001, 0], [-91, 0], [0, 180.5], [0, -1000]]) {
      expectFailure(await put(m, latitude!, longitude!), 400, "400000");
      expectFailure(await call("PUT", `/private/core/geolocation/SMP/${m.memberId}`, { as: m, body: { latitude, longitude } }), 400, "400000");
      expectFailure(await patch(m, { latitude, longitude }), 400, "400000");
    }
    expectFailure(await patch(m, { coordinates: "95,10" }), 400, "400503");
    expectFailure(await patch(m, { coordinates: "10,200" }), 400, "400503");
    expectFailure(await patch(m, { showPosition: "yes" }), 400, "400000");
    expectFailure(await patch(m, { showPosition: 1 }), 400, "400000");
    const after = expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }));
    expect(after).toMatchObject({ latitude: before.latitude, longitude: before.longitude, geohash: before.geohash, showPosition: true });
    const row = await env.DB.prepare("select latitude, longitude, show_position from profiles where member_id = ?").bind(m.memberId).first();
    expect(row).toEqual({ latitude: EXACT.latitude, longitude: EXACT.longitude, show_position: 1 });
  });
});
