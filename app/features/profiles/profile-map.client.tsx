import "leaflet/dist/leaflet.css";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Circle, MapContainer, TileLayer } from "react-leaflet";
import { MAP_OTHERS_MAX_ZOOM, MAP_TILE_URL, MAP_ZOOM } from "../../../worker/contract/map.constants";
import { MapFocusControl, type MapFocus } from "../../components/map-focus.client";

/** Others' positions are ~1 km cells (README "Cells, not positions"): an area around the cell centre, not a pin. */
const AREA_RADIUS_M = 800;

/**
 * Loaded only in the browser (leaflet needs window). §5: markers only for valid coordinates. §9: the member shown is
 * the selection (zoom 12), one level more every 10 taps on their area, never deeper than others' cells allow.
 */
export default function ProfileMap({ latitude, longitude, label }: { latitude: number; longitude: number; label: string }) {
  const { t } = useTranslation();
  const [taps, setTaps] = useState(0);
  const focus = useMemo<MapFocus>(() => ({ view: "selection", center: [latitude, longitude], taps }), [latitude, longitude, taps]);
  return (
    // Taps count toward the §9 zoom-in; a double tap must not zoom on its own.
    <MapContainer center={[latitude, longitude]} zoom={MAP_ZOOM.selection} maxZoom={MAP_OTHERS_MAX_ZOOM} scrollWheelZoom={false} doubleClickZoom={false} style={{ height: "100%", width: "100%" }} aria-label={label}>
      <TileLayer attribution={t("common:mapAttribution")} url={MAP_TILE_URL} maxZoom={MAP_OTHERS_MAX_ZOOM} />
      <MapFocusControl focus={focus} />
      <Circle center={[latitude, longitude]} radius={AREA_RADIUS_M} pathOptions={{ color: "#e0559c", fillOpacity: 0.2 }} eventHandlers={{ click: () => setTaps((n) => n + 1) }} />
    </MapContainer>
  );
}
