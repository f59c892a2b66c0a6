import { useEffect } from "react";
import { useMap } from "react-leaflet";
import { mapZoom, type MapView } from "../../worker/contract/map.constants";

/** Where a map looks: which §9 view, its centre, and the avatar taps counted so far (§9: one level more per 10). */
export type MapFocus = { view: MapView; center: [number, number]; taps: number };

/**
 * Moves the map to `focus` at the §9 zoom and mirrors the map's zoom and view on its container (`data-zoom`,
 * `data-view`), so a page test reads what the map shows rather than reaching into Leaflet. Browser-only.
 */
export function MapFocusControl({ focus }: { focus: MapFocus }) {
  const map = useMap();
  useEffect(() => {
    map.setView(focus.center, mapZoom(focus.view, focus.taps));
  }, [map, focus]);
  useEffect(() => {
    const container = map.getContainer();
    const sync = () => {
      container.dataset.zoom = String(map.getZoom());
      container.dataset.view = focus.view;
    };
    sync();
    map.on("zoomend moveend", sync);
    return () => {
      map.off("zoomend moveend", sync);
    };
  }, [map, focus.view]);
  return null;
}
