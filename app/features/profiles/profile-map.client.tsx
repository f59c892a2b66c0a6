import "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import { CircleMarker, MapContainer, TileLayer } from "react-leaflet";

/** Loaded only in the browser (leaflet needs window). §5: markers only for valid coordinates. */
export default function ProfileMap({ latitude, longitude, label }: { latitude: number; longitude: number; label: string }) {
  const { t } = useTranslation();
  return (
    <MapContainer center={[latitude, longitude]} zoom={8} scrollWheelZoom={false} style={{ height: "100%", width: "100%" }} aria-label={label}>
      <TileLayer attribution={t("common:mapAttribution")} url="https://tile.openstreetmap.org/{z}/{x}/{y}.png" />
      <CircleMarker center={[latitude, longitude]} radius={10} pathOptions={{ color: "#e0559c" }} />
    </MapContainer>
  );
}
