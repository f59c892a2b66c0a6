import "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import { CircleMarker, MapContainer, TileLayer, Tooltip } from "react-leaflet";
import type { NearbyItem } from "./market-sections";

/** §9 marker size: blocked 0, blurred 10, qualified 30 plus rank/10, else 20. */
export const markerSize = (item: NearbyItem) =>
  item.profile.blocked ? 0 : item.profile.blur ? 10 : item.profile.qualify ? 30 + item.rank / 10 : 20;

const valid = (lat: number, lng: number) => lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;

/** Browser-only (leaflet needs window). §9: zoom 8, then 12 on selection; markers only for valid coordinates (§5). */
export default function MarketMap({ items, origin, label }: { items: NearbyItem[]; origin: { latitude: number; longitude: number }; label: string }) {
  const { t } = useTranslation();
  return (
    <MapContainer center={[origin.latitude, origin.longitude]} zoom={8} scrollWheelZoom={false} style={{ height: "100%", width: "100%" }} aria-label={label}>
      <TileLayer attribution={t("common:mapAttribution")} url="https://tile.openstreetmap.org/{z}/{x}/{y}.png" />
      <CircleMarker center={[origin.latitude, origin.longitude]} radius={6} pathOptions={{ color: "#b98cff" }} />
      {items
        .filter((i) => valid(i.latitude, i.longitude) && markerSize(i) > 0)
        .map((item) => (
          <CircleMarker key={item.profile.simpleCode} center={[item.latitude, item.longitude]} radius={markerSize(item) / 3} pathOptions={{ color: "#e0559c" }}>
            <Tooltip>{item.profile.nickname}</Tooltip>
          </CircleMarker>
        ))}
    </MapContainer>
  );
}
