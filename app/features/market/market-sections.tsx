import { Switch } from "../../components/switch";
import { useEffect, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { BIDDING_STACK_MAX, CHARACTER_PAGE_SIZE, GROUP_SIZES } from "../../../worker/contract/market.constants";
import type { BiddingCard, PopularKeyword, SubmemberProfile } from "../../../worker/contract/market";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import type { CharacterUsersPage } from "../../../worker/contract/profiles";
import type { NearbyItem } from "../../../worker/contract/social";
import { Avatar } from "../../components/avatar";
import { Dialog, DialogClose } from "../../components/dialog";
import { useToast } from "../../components/toast";
import { useFormat } from "../../i18n/use-format";
import { characterUsersPage, multiGender, updateProfile } from "../../api/profiles-api";
import * as market from "../../api/market-api";
import { errorText } from "../../lib/error-text";

export type MarketGroup = { key: "maleS" | "femaleS" | "maleM" | "femaleM" | "special"; genders: number[]; profiles: ProfileSummary[] };
/** Others' positions are cell centres, whole kilometres and compass points (README "Cells, not positions"). */
type CharacterTag = { idCharacter: number; title: string };

const marketHref = (projectCode: string, memberNo: string) => `/${projectCode.toLowerCase()}/market/${encodeURIComponent(memberNo)}`;

function MemberCards({ profiles, label, projectCode }: { profiles: ProfileSummary[]; label: string; projectCode: string }) {
  const { t } = useTranslation("market");
  if (profiles.length === 0) return <p className="muted">{t("empty")}</p>;
  return (
    <ul className="market-grid" aria-label={label}>
      {profiles.map((p) => (
        <li key={p.simpleCode} className="market-card">
          <Avatar profile={p} size={64} link={p.multiGender === 1 || p.multiGender === 2 ? marketHref(projectCode, p.simpleCode) : true} />
          <span className="market-card-name">{p.nickname || p.simpleCode}</span>
        </li>
      ))}
    </ul>
  );
}

/** Nickname search plus the hot-search keywords (§2 Market); a search that finds someone counts its keyword. */
export function SearchPanel({ projectCode, keywords }: { projectCode: string; keywords: PopularKeyword[] }) {
  const { t } = useTranslation("market");
  const [keyword, setKeyword] = useState("");
  const [results, setResults] = useState<SubmemberProfile[] | null>(null);
  const [hot, setHot] = useState(keywords);
  const project = projectCode.toUpperCase();

  async function search(value: string) {
    const trimmed = value.trim();
    if (!trimmed) return;
    setKeyword(trimmed);
    const body = await market.search(project, trimmed);
    setResults("info" in body ? body.info : []);
    const fresh = await market.popularKeywords(project);
    if ("info" in fresh) setHot(fresh.info);
  }

  return (
    <section className="section" aria-labelledby="market-search">
      <h2 id="market-search">{t("search.title")}</h2>
      <form
        className="market-search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search(keyword);
        }}
      >
        <label className="field market-search-field">
          <span>{t("search.label")}</span>
          <input type="search" value={keyword} maxLength={40} onChange={(e) => setKeyword(e.target.value)} />
        </label>
        <button type="submit" className="button button-primary">
          {t("search.submit")}
        </button>
      </form>
      {hot.length > 0 && (
        <div className="chips" role="group" aria-label={t("search.hot")}>
          <span className="muted small">{t("search.hot")}</span>
          {hot.map((k) => (
            <button key={k.keyword} type="button" className="chip" onClick={() => void search(k.keyword)}>
              {k.keyword}
            </button>
          ))}
        </div>
      )}
      {results && (results.length ? <MemberCards profiles={results} label={t("search.results")} projectCode={projectCode} /> : <p className="muted">{t("search.none")}</p>)}
    </section>
  );
}

/**
 * §2 nearby map with a who-is-nearby action. Sharing a position first when the member has none. The switch is the
 * member's choice to appear on maps and nearby at all (off until they turn it on); others then see an area, never the spot.
 */
export function NearbyPanel({ projectCode, memberId, showPosition }: { projectCode: string; memberId: string; showPosition: boolean }) {
  const { t } = useTranslation("market");
  const toast = useToast();
  const [shown, setShown] = useState(showPosition);
  const [items, setItems] = useState<NearbyItem[] | null>(null);
  const [origin, setOrigin] = useState<{ latitude: number; longitude: number } | null>(null);
  const [MapView, setMapView] = useState<ComponentType<{ items: NearbyItem[]; origin: { latitude: number; longitude: number }; label: string }> | null>(null);
  const [busy, setBusy] = useState(false);
  const project = projectCode.toUpperCase();

  useEffect(() => {
    if (items && !MapView) void import("./market-map.client").then((m) => setMapView(() => m.default));
  }, [items, MapView]);

  async function share(): Promise<boolean> {
    if (!("geolocation" in navigator)) {
      toast(t("nearby.unsupported"), "error");
      return false;
    }
    const position = await new Promise<GeolocationPosition | null>((resolve) =>
      navigator.geolocation.getCurrentPosition(resolve, () => resolve(null), { timeout: 10_000 }),
    );
    if (!position) {
      toast(t("nearby.failed"), "error");
      return false;
    }
    const body = await market.sharePosition(memberId, position.coords.latitude, position.coords.longitude);
    return "info" in body;
  }

  async function setShownOnMap(value: boolean) {
    setShown(value);
    const body = await updateProfile(memberId, { showPosition: value });
    if (!("info" in body)) {
      setShown(!value);
      toast(errorText(t, body), "error");
      return;
    }
    toast(t(value ? "nearby.shownToast" : "nearby.hiddenToast"), "success");
  }

  async function find() {
    setBusy(true);
    let body = await market.nearby(project);
    if (!("info" in body) && body.returnCode === "409602" && (await share())) body = await market.nearby(project);
    setBusy(false);
    if (!("info" in body)) {
      toast(errorText(t, body), "error");
      return;
    }
    const { latitude, longitude } = body.info.origin;
    setOrigin(latitude != null && longitude != null ? { latitude, longitude } : null);
    setItems(body.info.items);
  }

  return (
    <section className="section" aria-labelledby="market-nearby">
      <div className="section-head">
        <h2 id="market-nearby">{t("nearby.title")}</h2>
        <button type="button" className="button" onClick={() => void find()} disabled={busy}>
          {t("nearby.action")}
        </button>
      </div>
      <div className="switch-row">
        <label htmlFor="switch-show-position">{t("nearby.showMe")}</label>
        <Switch id="switch-show-position" checked={shown} onCheckedChange={(v) => void setShownOnMap(v)} aria-describedby="show-position-hint" />
      </div>
      <p id="show-position-hint" className="muted small">
        {t("nearby.showMeHint")}
      </p>
      {/* The map draws its own frame and actions; the empty frame holds its place while leaflet loads. */}
      {items && origin && (MapView ? <MapView items={items} origin={origin} label={t("nearby.map")} /> : <div className="market-map" />)}
      {items && <MemberCards profiles={items.map((i) => i.profile)} label={t("nearby.list")} projectCode={projectCode} />}
    </section>
  );
}

/** One §2 group (two headed S, two headed M, one special) with the §9 group sizes 20/30/50/100/full. */
export function GroupSection({ projectCode, group }: { projectCode: string; group: MarketGroup }) {
  const { t } = useTranslation("market");
  const [profiles, setProfiles] = useState(group.profiles);
  const [sizeIndex, setSizeIndex] = useState(0);
  const project = projectCode.toUpperCase();
  const next = GROUP_SIZES[sizeIndex + 1];

  async function more() {
    if (!next) return;
    const lists = await Promise.all(group.genders.map((g) => multiGender(project, g, next)));
    setProfiles(mergeLists(lists.map((l) => ("info" in l ? l.info : [])), next));
    setSizeIndex(sizeIndex + 1);
  }

  const headingId = `group-${group.key}`;
  return (
    <section className="section" aria-labelledby={headingId}>
      <div className="section-head">
        <h2 id={headingId}>
          <span className="group-badge" aria-hidden="true">
            {t(`groups.${group.key}.badge`)}
          </span>{" "}
          {t(`groups.${group.key}.title`)}
        </h2>
        {next && profiles.length >= GROUP_SIZES[sizeIndex]! && (
          <button type="button" className="button" onClick={() => void more()}>
            {next === 99999 ? t("groups.all") : t("groups.more", { count: next })}
          </button>
        )}
      </div>
      <MemberCards profiles={profiles} label={t(`groups.${group.key}.title`)} projectCode={projectCode} />
    </section>
  );
}

/** Interleaves several lists (the special group merges two genders) and caps the size. */
export function mergeLists(lists: ProfileSummary[][], size: number) {
  const out: ProfileSummary[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < size && lists.some((l) => i < l.length); i++) {
    for (const list of lists) {
      const p = list[i];
      if (p && !seen.has(p.simpleCode) && out.length < size) {
        seen.add(p.simpleCode);
        out.push(p);
      }
    }
  }
  return out;
}

/** Character tags; each opens the members holding it, 20 per page (§9). */
export function CharacterTags({ projectCode, characters }: { projectCode: string; characters: CharacterTag[] }) {
  const { t } = useTranslation("market");
  const [open, setOpen] = useState<CharacterTag | null>(null);
  const [pages, setPages] = useState<CharacterUsersPage | null>(null);
  const [users, setUsers] = useState<ProfileSummary[]>([]);
  const project = projectCode.toUpperCase();

  async function load(tag: CharacterTag, page: number) {
    const body = await characterUsersPage(project, tag.idCharacter, page, CHARACTER_PAGE_SIZE);
    if (!("info" in body)) return;
    setPages(body.info);
    setUsers((list) => (page === 1 ? body.info.userCharacters.map((u) => u.profile) : [...list, ...body.info.userCharacters.map((u) => u.profile)]));
  }

  if (characters.length === 0) return null;
  const title = (tag: CharacterTag) => t(`profiles:character.${tag.title}`, { defaultValue: tag.title });
  return (
    <section className="section" aria-labelledby="market-characters">
      <h2 id="market-characters">{t("characters.title")}</h2>
      <div className="chips">
        {characters.map((tag) => (
          <button
            key={tag.idCharacter}
            type="button"
            className="chip"
            onClick={() => {
              setOpen(tag);
              setUsers([]);
              setPages(null);
              void load(tag, 1);
            }}
          >
            {title(tag)}
          </button>
        ))}
      </div>
      <Dialog
        className="dialog dialog-wide"
        open={open !== null}
        onOpenChange={(value) => !value && setOpen(null)}
        title={open ? title(open) : ""}
        description={t("characters.members")}
        descriptionClassName="visually-hidden"
      >
        {pages ? <MemberCards profiles={users} label={t("characters.members")} projectCode={projectCode} /> : <p className="muted">{t("common:loading")}</p>}
        <div className="dialog-actions">
          {pages?.hasMore && open && (
            <button type="button" className="button" onClick={() => void load(open, pages.page + 1)}>
              {t("characters.more")}
            </button>
          )}
          <DialogClose>{t("close")}</DialogClose>
        </div>
      </Dialog>
    </section>
  );
}

/** A bidding card per member on the market: nickname, introduction, count, countdown, bidders (max 5). */
export function BiddingCards({ projectCode, cards }: { projectCode: string; cards: BiddingCard[] }) {
  const { t } = useTranslation("market");
  const format = useFormat();
  const toast = useToast();
  const [list, setList] = useState(cards);
  const project = projectCode.toUpperCase();

  async function bid(card: BiddingCard) {
    const body = await market.bid(card.profile.simpleCode);
    if (!("info" in body)) {
      toast(errorText(t, body), "error");
      return;
    }
    toast(t("bidding.done", { name: card.profile.nickname }), "success");
    const fresh = await market.biddings(project);
    if ("info" in fresh) setList(fresh.info);
  }

  return (
    <section className="section" aria-labelledby="market-bidding">
      <h2 id="market-bidding">{t("bidding.title")}</h2>
      {list.length === 0 && <p className="muted">{t("bidding.empty")}</p>}
      <ul className="bidding-list">
        {list.map((card) => (
          <li key={card.profile.simpleCode} className="bidding-card">
            <div className="bidding-head">
              <Avatar profile={card.profile} size={56} link />
              <div className="bidding-text">
                <h3>{card.profile.nickname}</h3>
                <p className="bidding-intro">{card.profile.introduction}</p>
              </div>
            </div>
            <p className="muted small" suppressHydrationWarning>
              {t("bidding.count", { count: card.biddingCount })} · {t("bidding.due", { date: format.dateTime(card.lastBidding.dueDate) })}
            </p>
            {card.bidders.length > 0 && (
              <ul className="avatar-stack" aria-label={t("bidding.bidders")}>
                {card.bidders.slice(0, BIDDING_STACK_MAX).map((p) => (
                  <li key={p.simpleCode}>
                    <Avatar profile={p} size={32} />
                  </li>
                ))}
              </ul>
            )}
            {/* Only for members who may bid now (a master, not already the last bidder); the server decides the bid. */}
            {card.canBid && (
              <button type="button" className="button button-primary" onClick={() => void bid(card)}>
                {t("bidding.bid", { name: card.profile.nickname })}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function MasterLink({ projectCode, profile }: { projectCode: string; profile: ProfileSummary }) {
  return <Link to={marketHref(projectCode, profile.simpleCode)}>{profile.nickname || profile.simpleCode}</Link>;
}
