import "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import { Circle, MapContainer, TileLayer } from "react-leaflet";

/** Others' positions are ~1 km cells (README "Cells, not positions"): an area around the cell centre, not a pin. */
const AREA_RADIUS_M = 800;

/** Loaded only in the browser (leaflet needs window). §5: markers only for valid coordinates. §9: zoom 12 on a selection. */
export default function ProfileMap({ latitude, longitude, label }: { latitude: number; longitude: number; label: string }) {
  const { t } = useTranslation();
  return (
    <MapContainer center={[latitude, longitude]} zoom={12} scrollWheelZoom={false} style={{ height: "100%", width: "100%" }} aria-label={label}>
      <TileLayer attribution={t("common:mapAttribution")} url="https://tile.openstreetmap.org/{z}/{x}/{y}.png" />
      <Circle center={[latitude, longitude]} radius={AREA_RADIUS_M} pathOptions={{ color: "#e0559c", fillOpacity: 0.2 }} />
    </MapContainer>
  );
}
