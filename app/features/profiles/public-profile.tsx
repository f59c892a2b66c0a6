import { startTransition, useEffect, useRef, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { VisitorEntry } from "../../../worker/contract/home";
import type { ProfileSummary } from "../../../worker/contract/profile-summary";
import type { ActionStat, Banner, Character, PublicProfile as PublicProfileFields } from "../../../worker/contract/profiles";
import type { Relationship } from "../../../worker/contract/social";
import { COMPASS_POINTS, type CompassPoint } from "../../../worker/contract/social.constants";
import { Avatar, LoginPrompt, useAvatarMode } from "../../components/avatar";
import { Dialog, DialogClose } from "../../components/dialog";
import { LocalTime, useFormat } from "../../i18n/use-format";
import { TOAST_DURATION, useToast } from "../../components/toast";
import { errorText } from "../../lib/error-text";
import { revealPhoto } from "../../lib/reveal-photo";
import { lateModule, useLateModule } from "../../lib/late-module";
import { readSession } from "../../lib/session-keys";
import { ProfileMessageControls } from "../chat/message-button";
import { ProfileSocialControls } from "../social/profile-social-controls";
import { useMyMemberNo } from "../shell/viewer";
import { FlameControls } from "./flame-controls";
import { characterLabel, genderLabel } from "./profile-labels";
import { CreatorCard } from "./creator-card";
import { DnaCard } from "./dna-card";
import * as profiles from "../../api/profiles-api";
import { NearBox, useNear, WhenNear, WhenNearLate } from "../../lib/when-near";

// Below a phone's first screen: their code comes when they near it, not with the page (README Decisions "Below the
// fold, the code on demand too").
const memberChatMessages = lateModule(() => import("../chat/member-chat-messages"));
const profileSubmembers = lateModule(() => import("../market/profile-submembers"));
const profileGrid = lateModule(() => import("./profile-grid"));

/** A profile on GET /core/profiles/{projectCode}/page/{memberNo}: the §3 public profile (one type with the server) and what it is to this viewer. */
export type PublicProfileData = PublicProfileFields & {
  relationship: Relationship | null;
  matchRate: number | null;
  /** Whole kilometres between the viewer's cell and this member's (README "Cells, not positions"). */
  distanceKm: number | null;
  /** One of eight compass points; null inside the same cell. */
  bearing: CompassPoint | null;
};
/** §4: what the server sends of a closed profile to a viewer the owner has not let in (profile-access.ts). */
export type ClosedProfileStub = Pick<ProfileSummary, "simpleCode" | "nickname" | "avator" | "blur"> & {
  closed: true;
  stub: true;
  relationship: Relationship | null;
};
export type PublicProfilePageData = {
  profile: PublicProfileData | ClosedProfileStub;
  characters: Character[];
  actions: ActionStat[];
  footprints: VisitorEntry[];
  banners: Banner[];
  lists: { hot: ProfileSummary[]; newbie: ProfileSummary[]; online: ProfileSummary[]; speech: ProfileSummary[] };
  /** The page came without the strips' cards (`lists` empty): how many each has, read when they near the screen. */
  listSizes?: Record<keyof PublicProfilePageData["lists"], number>;
  partial?: boolean;
};

/** Height of one avatar strip (heading, 52 px avatars, names): its placeholder's, so nothing moves when it renders. */
const STRIP_HEIGHT = 150;
const STRIP_KEYS = ["hot", "newbie", "online", "speech"] as const;

/** §9 the four member strips: fixed-size placeholders until they near the screen, then asked for (`onNear`). */
function MemberStrips({ data, onNear }: { data: PublicProfilePageData; onNear?: () => void }) {
  const { t } = useTranslation("profiles");
  const box = useRef<HTMLDivElement>(null);
  // No margin: on a phone the strips start about a screen down, and a margin would read them with the page.
  const near = useNear(box, "0px");
  const waiting = data.partial === true;
  // The strips' code is fetched alongside their cards; a failed fetch leaves the placeholder.
  const grid = useLateModule(profileGrid, near || !waiting, () => {});
  useEffect(() => {
    if (near && waiting) onNear?.();
  }, [near, waiting, onNear]);
  const label = { hot: t("lists.hot"), newbie: t("lists.newbie"), online: t("lists.online"), speech: t("lists.speech") };
  const shown = STRIP_KEYS.filter((k) => data.lists[k].length > 0);
  if (!waiting && shown.length === 0) return null;
  if (!waiting && grid) return <>{shown.map((k) => <grid.ProfileStrip key={k} profiles={data.lists[k]} label={label[k]} />)}</>;
  const strips = STRIP_KEYS.filter((k) => (data.listSizes?.[k] ?? data.lists[k].length) > 0).length;
  return <NearBox box={box} minHeight={strips * STRIP_HEIGHT} />;
}

const validCoordinates = (lat: number | null, lng: number | null) => lat != null && lng != null && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** §9: 24 hours starting 12 hours before now, in local time; stats are per UTC hour. Browser only. */
function ActivityChart({ stats }: { stats: ActionStat[] }) {
  const { t } = useTranslation("profiles");
  const format = useFormat();
  const [bars, setBars] = useState<{ at: Date; count: number }[] | null>(null);
  useEffect(() => {
    const start = Date.now() - 12 * 3_600_000;
    const byUtc = new Map(stats.map((s) => [s.actionHour, s.actionCount]));
    // A transition: rendered in slices, not in the task that runs the page's first effects.
    startTransition(() =>
      setBars(
        Array.from({ length: 24 }, (_, i) => {
          const at = new Date(start + i * 3_600_000);
          return { at, count: byUtc.get(at.getUTCHours()) ?? 0 };
        }),
      ),
    );
  }, [stats]);
  const hour = (at: Date) => format.date(at, "hour");
  // The server and hydration hold the chart's place (its bars are local hours), so the blocks below stay put.
  if (!bars)
    return (
      <figure className="section" aria-hidden="true">
        <div className="chart" />
        <div className="chart-labels">
          <span>{"\u00a0"}</span>
        </div>
      </figure>
    );
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <figure className="section" aria-label={t("public.activity")}>
      <div className="chart" role="img" aria-label={t("public.activitySummary", { total: bars.reduce((n, b) => n + b.count, 0) })}>
        {bars.map((b, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a bar is its hour slot; the list never reorders
          <span key={i} className="chart-bar" style={{ height: `${(b.count / max) * 100}%` }} title={`${hour(b.at)} · ${format.number(b.count)}`} />
        ))}
      </div>
      <div className="chart-labels" aria-hidden="true">
        <span>{hour(bars[0]!.at)}</span>
        <span>{hour(bars[12]!.at)}</span>
        <span>{hour(bars[23]!.at)}</span>
      </div>
    </figure>
  );
}

/** Others are placed by cell: a compass point (none inside the same cell) and whole kilometres. */
function Compass({ bearing, distanceKm }: { bearing: CompassPoint | null; distanceKm: number }) {
  const { t } = useTranslation("profiles");
  return (
    <div className="row">
      {bearing && (
        <div className="compass" role="img" aria-label={t("public.bearing", { direction: t(`public.compass.${bearing}`) })}>
          <span className="compass-n">{t("public.north")}</span>
          <span className="compass-needle" style={{ transform: `rotate(${COMPASS_POINTS.indexOf(bearing) * 45}deg)` }} />
        </div>
      )}
      <p>{t("public.distance", { km: distanceKm })}</p>
    </div>
  );
}

/** Leaflet (its code, its first layout and the tiles) loads when the map nears the screen, not with the page. */
function ProfileMapLazy({ latitude, longitude }: { latitude: number; longitude: number }) {
  const { t } = useTranslation("profiles");
  const [MapView, setMapView] = useState<ComponentType<{ latitude: number; longitude: number; label: string }> | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const load = () => void import("./profile-map.client").then((m) => setMapView(() => m.default));
    if (!box.current || typeof IntersectionObserver === "undefined") return load();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        load();
      },
      { rootMargin: "200px" },
    );
    observer.observe(box.current);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="profile-map" ref={box}>
      {MapView && <MapView latitude={latitude} longitude={longitude} label={t("public.map")} />}
    </div>
  );
}

/** One footprint row (36 px avatar and 0.5rem gap): the timeline's placeholder height per visitor. */
const FOOTPRINT_ROW = 44;

const REVEAL_TAPS = 10;

/**
 * §9: a blurred photo reveals after 10 taps. The page holds only the blurred rendition; the 10th tap of a member asks
 * the server for the original; a visitor's tap opens the login prompt instead.
 */
function BlurredPhoto({ banner, alt, projectCode }: { banner: Banner; alt: string; projectCode: string }) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const { visitor } = useAvatarMode();
  const [taps, setTaps] = useState(0);
  const [original, setOriginal] = useState<string | null>(null);
  const [loginOpen, setLoginOpen] = useState(false);
  const hidden = banner.blur && !original;
  async function tap() {
    if (!hidden) return;
    if (visitor) return setLoginOpen(true);
    const count = taps + 1;
    setTaps(count);
    if (count < REVEAL_TAPS) return;
    const body = await revealPhoto(banner.idBanner);
    if ("info" in body) setOriginal(body.info.image);
    else {
      setTaps(0);
      toast(errorText(t, body), "error");
    }
  }
  const src = original ?? banner.image;
  return (
    <>
      <button type="button" className="avatar-button" onClick={() => void tap()} aria-label={hidden ? t("public.tapToReveal", { left: Math.max(0, REVEAL_TAPS - taps) }) : alt}>
        {src ? (
          <img src={src} alt={alt} width={banner.width} height={banner.height} loading="lazy" className={hidden ? "blurred" : ""} />
        ) : (
          <span className="photo-missing" style={{ aspectRatio: `${banner.width} / ${banner.height}` }} />
        )}
      </button>
      {loginOpen && <LoginPrompt projectCode={projectCode} onClose={() => setLoginOpen(false)} />}
    </>
  );
}

const isStub = (profile: PublicProfilePageData["profile"]): profile is ClosedProfileStub => "stub" in profile && profile.stub;

export function PublicProfile({ projectCode, data, onStripsNear }: { projectCode: string; data: PublicProfilePageData; onStripsNear?: () => void }) {
  const { profile } = data;
  if (isStub(profile)) return <ClosedProfile projectCode={projectCode} profile={profile} />;
  return <OpenProfile projectCode={projectCode} data={{ ...data, profile }} onStripsNear={onStripsNear} />;
}

/**
 * §4 Closed profile, for a viewer the owner has not let in: the server sent only the stub, so the banner's taps
 * reveal no more than the stub and say so; a visitor is offered the login (§6).
 */
function ClosedProfile({ projectCode, profile }: { projectCode: string; profile: ClosedProfileStub }) {
  const { t } = useTranslation("profiles");
  const { visitor } = useAvatarMode();
  const [taps, setTaps] = useState(0);
  const [loginOpen, setLoginOpen] = useState(false);
  const name = profile.nickname || t("avatar.unnamed", { code: profile.simpleCode });
  const revealed = taps > 10;
  function tap() {
    const count = taps + 1;
    setTaps(count);
    if (count > 10 && visitor) setLoginOpen(true);
  }
  return (
    <main className="page stack">
      <section className="public-head">
        <Avatar profile={profile} size={112} />
        <div className="stack">
          <div className="public-name">
            <h1>{name}</h1>
          </div>
        </div>
      </section>
      {revealed ? (
        <p className="notice" role="status">
          {t("public.closedStub", { name })}
        </p>
      ) : (
        <div className="closed-stub-banner">
          <button type="button" className="button button-primary" onClick={tap}>
            {t("public.closed", { count: Math.max(0, 11 - taps) })}
          </button>
        </div>
      )}
      {profile.relationship && <ProfileSocialControls projectCode={projectCode} memberNo={profile.simpleCode} nickname={profile.nickname} relationship={profile.relationship} />}
      {loginOpen && <LoginPrompt projectCode={projectCode} onClose={() => setLoginOpen(false)} />}
    </main>
  );
}

function OpenProfile({ projectCode, data, onStripsNear }: { projectCode: string; data: PublicProfilePageData & { profile: PublicProfileData }; onStripsNear?: () => void }) {
  const { t } = useTranslation("profiles");
  const { profile } = data;
  const [closedTaps, setClosedTaps] = useState(0);
  const [character, setCharacter] = useState<Character | null>(null);
  const [characterUsers, setCharacterUsers] = useState<{ simpleCode: string; nickname: string; profile: ProfileSummary }[] | null>(null);
  // The reader's own profile (read after hydration, in its one transition): a closed profile stays open to them.
  const own = useMyMemberNo() === profile.simpleCode;
  const toast = useToast();
  useEffect(() => {
    // §8: a member whose own avatar is not qualified cannot see others' avatars (the API hides them); 90 s notice.
    if (readSession() && profile.blur && !profile.avator && profile.qualify) toast(t("errors:403206"), "long", TOAST_DURATION.long);
  }, [profile.blur, profile.avator, profile.qualify, t, toast]);
  const incomplete = !profile.nickname || (!profile.avator && !profile.blur);

  const closed = profile.closed && !own && closedTaps <= 10;
  const name = profile.nickname || t("avatar.unnamed", { code: profile.simpleCode });
  const contacts = (["skypeId", "wechatId", "telegramId", "twitterId", "instagramId", "dcardId"] as const).filter((k) => profile[k]);

  async function openCharacter(c: Character) {
    setCharacter(c);
    setCharacterUsers(null);
    const body = await profiles.characterUsers(projectCode, c.idCharacter);
    setCharacterUsers("info" in body ? body.info.userCharacters : []);
  }

  return (
    <main className="page stack">
      <div className={`closed-wrap ${closed ? "is-closed" : ""}`}>
        {closed && (
          <div className="closed-banner">
            <button type="button" className="button button-primary" onClick={() => setClosedTaps((n) => n + 1)}>
              {t("public.closed", { count: Math.max(0, 11 - closedTaps) })}
            </button>
          </div>
        )}
        <div className="closed-content stack" aria-hidden={closed || undefined}>
          <section className="public-head">
            <Avatar profile={profile} size={112} />
            <div className="stack">
              <div className="public-name">
                <h1>{name}</h1>
                {profile.kycStatus >= 1 && <span className="kyc-badge">{t("public.verified")}</span>}
              </div>
              <span className="muted">{genderLabel(t, profile.multiGender)}</span>
              {profile.zodiacSign && <span className="muted">{t(`zodiac.${profile.zodiacSign}`)}</span>}
              {profile.pageViews != null && <span className="muted">{t("public.pageViews", { count: profile.pageViews })}</span>}
            </div>
          </section>

          {incomplete && (
            <p className="notice" role="status">
              {t("errors:403203")}
            </p>
          )}

          <ProfileSocialControls projectCode={projectCode} memberNo={profile.simpleCode} nickname={profile.nickname} relationship={profile.relationship} />
          {profile.relationship && <FlameControls projectCode={projectCode} memberNo={profile.simpleCode} kycStatus={profile.kycStatus} />}
          <ProfileMessageControls projectCode={projectCode} memberNo={profile.simpleCode} nickname={profile.nickname} relationship={profile.relationship} />

          <section className="card stack" aria-labelledby="intro-heading">
            <h2 id="intro-heading">{t("public.introduction")}</h2>
            {profile.introduction ? <p className="intro-text">{profile.introduction}</p> : <p className="muted">{t("public.noIntro")}</p>}
            {(contacts.length > 0 || profile.websiteUrl) && (
              <div className="contact-links" role="group" aria-label={t("public.contacts")}>
                {contacts.map((k) => (
                  <span key={k} className="chip">
                    {t(`contact.${k}`)}: {profile[k]}
                  </span>
                ))}
                {profile.websiteUrl && (
                  <a className="chip" href={profile.websiteUrl} rel="noopener noreferrer nofollow" target="_blank">
                    {t("contact.websiteUrl")}
                  </a>
                )}
              </div>
            )}
          </section>

          <CreatorCard projectCode={projectCode} memberNo={profile.simpleCode} />
          <section className="section" aria-labelledby="chars-heading">
            <h2 id="chars-heading">{t("public.characters")}</h2>
            <div className="filters">
              {data.characters.filter((c) => c.checked).map((c) => (
                <button key={c.idCharacter} type="button" className={`chip ${c.hit ? "chip-hit" : ""}`} onClick={() => void openCharacter(c)}>
                  {characterLabel(t, c.title)}
                </button>
              ))}
              {data.characters.every((c) => !c.checked) && <span className="muted">{t("public.noCharacters")}</span>}
            </div>
            {profile.matchRate != null && <p>{t("public.matchRate", { rate: profile.matchRate })}</p>}
          </section>
          <WhenNear minHeight={0}>{() => <DnaCard projectCode={projectCode} memberNo={profile.simpleCode} />}</WhenNear>

          <div className="stats-row">
            {validCoordinates(profile.latitude, profile.longitude) && (
              <section aria-label={t("public.map")}>
                <ProfileMapLazy latitude={profile.latitude!} longitude={profile.longitude!} />
              </section>
            )}
            {profile.distanceKm != null && <Compass bearing={profile.bearing} distanceKm={profile.distanceKm} />}
          </div>

          <section className="section">
            <h2>{t("public.activity")}</h2>
            <ActivityChart stats={data.actions} />
          </section>

          {data.banners.length > 0 && (
            <section className="section">
              <h2>{t("public.photos")}</h2>
              <ul className="photo-grid">
                {data.banners.map((b) => (
                  <li key={b.idBanner}>
                    <BlurredPhoto banner={b} alt={t("photoAlt", { name })} projectCode={projectCode} />
                  </li>
                ))}
              </ul>
            </section>
          )}

          {/* Below a phone's first screen: these read their data when the member scrolls near them, not with the page. */}
          <WhenNearLate minHeight={0} late={memberChatMessages}>
            {(m) => <m.MemberChatMessages projectCode={projectCode} memberNo={profile.simpleCode} />}
          </WhenNearLate>

          <WhenNearLate minHeight={data.footprints.length > 0 ? STRIP_HEIGHT : 0} late={profileGrid}>
            {(grid) => <grid.ProfileStrip profiles={data.footprints.map((v) => v.profile)} label={t("public.alsoVisited")} />}
          </WhenNearLate>
          <MemberStrips data={data} onNear={onStripsNear} />

          <section className="section" aria-labelledby="footprints-heading">
            <h2 id="footprints-heading">{t("public.footprints")}</h2>
            {data.footprints.length === 0 ? (
              <p className="muted">{t("public.noFootprints")}</p>
            ) : (
              <WhenNear minHeight={data.footprints.length * FOOTPRINT_ROW}>
                {() => (
                  <ol className="timeline">
                    {data.footprints.map((v) => (
                      <li key={v.simpleCode}>
                        <Avatar profile={v.profile} size={36} link />
                        <span>{v.nickname}</span>
                        <LocalTime className="muted" value={v.dateUpd} />
                      </li>
                    ))}
                  </ol>
                )}
              </WhenNear>
            )}
          </section>

          <WhenNearLate minHeight={0} late={profileSubmembers}>
            {(m) => <m.ProfileSubmembers projectCode={projectCode} memberNo={profile.simpleCode} multiGender={profile.multiGender} />}
          </WhenNearLate>
        </div>
      </div>

      <Dialog
        open={character !== null}
        onOpenChange={(open) => !open && setCharacter(null)}
        title={character ? characterLabel(t, character.title) : ""}
        description={t("public.usersWith")}
      >
        {characterUsers === null ? (
          <p>{t("common:loading")}</p>
        ) : (
          <ul className="timeline">
            {characterUsers.map((u) => (
              <li key={u.simpleCode}>
                <Avatar profile={u.profile} size={36} link />
                <span>{u.nickname || t("avatar.unnamed", { code: u.simpleCode })}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="dialog-actions">
          <DialogClose>{t("common:close")}</DialogClose>
        </div>
      </Dialog>
    </main>
  );
}
