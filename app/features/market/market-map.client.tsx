import "leaflet/dist/leaflet.css";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { CircleMarker, MapContainer, TileLayer, Tooltip } from "react-leaflet";
import { MAP_OWN_MAX_ZOOM, MAP_TILE_URL, MAP_ZOOM, markerSize } from "../../../worker/contract/map.constants";
import { publicProfileHref } from "../../components/avatar";
import { MapFocusControl, type MapFocus } from "../../components/map-focus.client";
import type { NearbyItem } from "../../../worker/contract/social";

const valid = (lat: number, lng: number) => lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;

/**
 * Browser-only (leaflet needs window). §9: zoom 8 around the member at first, 14 on their own position, 12 on a
 * selected member, one level more every 10 taps on members' markers; marker sizes per §9 (a blocked member is not
 * drawn). Others are drawn at their cell's centre only (README "Cells, not positions"); the member's own exact
 * position is theirs alone (`origin` comes from their own geolocation).
 */
export default function MarketMap({ items, origin, label }: { items: NearbyItem[]; origin: { latitude: number; longitude: number }; label: string }) {
  const { t } = useTranslation("notify");
  const projectCode = (useParams().projectCode ?? "smp").toLowerCase();
  const own: [number, number] = [origin.latitude, origin.longitude];
  const [focus, setFocus] = useState<MapFocus>({ view: "initial", center: own, taps: 0 });
  const [selected, setSelected] = useState<NearbyItem | null>(null);
  const taps = useRef(0);
  const drawn = items.filter((i) => valid(i.latitude, i.longitude) && markerSize(i.profile, i.rank) > 0);

  function select(item: NearbyItem) {
    taps.current += 1;
    setSelected(item);
    setFocus({ view: "selection", center: [item.latitude, item.longitude], taps: taps.current });
  }
  const showOwn = () => setFocus({ view: "own", center: own, taps: taps.current });
  const name = (item: NearbyItem) => item.profile.nickname || item.profile.simpleCode;

  return (
    <>
      <div className="market-map">
        {/* Taps count toward the §9 zoom-in; a double tap must not zoom on its own. */}
        <MapContainer center={own} zoom={MAP_ZOOM.initial} maxZoom={MAP_OWN_MAX_ZOOM} scrollWheelZoom={false} doubleClickZoom={false} style={{ height: "100%", width: "100%" }} aria-label={label}>
          <TileLayer attribution={t("common:mapAttribution")} url={MAP_TILE_URL} maxZoom={MAP_OWN_MAX_ZOOM} />
          <MapFocusControl focus={focus} />
          <CircleMarker center={own} radius={6} pathOptions={{ color: "#b98cff" }} eventHandlers={{ click: showOwn }}>
            <Tooltip>{t("map.you")}</Tooltip>
          </CircleMarker>
          {drawn.map((item) => (
            <CircleMarker
              key={item.profile.simpleCode}
              center={[item.latitude, item.longitude]}
              // §9 size is the marker's diameter in px.
              radius={markerSize(item.profile, item.rank) / 2}
              // A creation option (Leaflet reads it when drawing the path; pathOptions only restyle). The member
              // number names the marker for a page test among other members nearby.
              className={`map-member map-member-${item.profile.simpleCode}`}
              pathOptions={{ color: "#e0559c", weight: selected?.profile.simpleCode === item.profile.simpleCode ? 4 : 2 }}
              eventHandlers={{ click: () => select(item) }}
            >
              <Tooltip>{name(item)}</Tooltip>
            </CircleMarker>
          ))}
        </MapContainer>
      </div>
      <div className="map-actions">
        <button type="button" className="button" onClick={showOwn}>
          {t("map.myPosition")}
        </button>
        {selected && (
          <Link className="map-selected" to={publicProfileHref(projectCode, selected.profile.simpleCode)}>
            {t("map.openProfile", { name: name(selected) })}
          </Link>
        )}
      </div>
    </>
  );
}
