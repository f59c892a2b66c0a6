import { RadioGroup, Switch } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Banner, Character, OwnProfile, UploadInfo } from "../../../worker/contract/profiles";
import { Avatar, setSafeMode } from "../../components/avatar";
import { Dialog, DialogAction, DialogClose } from "../../components/dialog";
import { TOAST_DURATION, useToast } from "../../components/toast";
import { UploadProgress } from "../../components/upload-progress";
import { uploadWithProgress } from "../../lib/upload";
import { errorText } from "../../lib/error-text";
import { MemberChatMessages } from "../chat/member-chat-messages";
import { ProfileSubmembers } from "../market/profile-submembers";
import { useLogout } from "../session/use-logout";
import { MySocialLists } from "../social/my-social-lists";
import { characterLabel, genderLabel, lookForLabel } from "./profile-labels";
import * as profiles from "./profiles-api";
import { SharePanel } from "./share-panel";

const HANDLES = ["skypeId", "wechatId", "telegramId", "twitterId", "instagramId", "dcardId"] as const;
const APP_VERSION = "1.0.0";

/** Square-crops a picked image in the browser (the server still checks squareness, type and size). */
async function squareImage(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    if (bitmap.width === bitmap.height) return file;
    const side = Math.min(bitmap.width, bitmap.height);
    const canvas = document.createElement("canvas");
    canvas.width = side;
    canvas.height = side;
    canvas.getContext("2d")!.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, side, side);
    return await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b ?? file), "image/jpeg", 0.9));
  } catch {
    return file;
  }
}

export function MyProfile({
  projectCode,
  initial,
  characters: initialCharacters,
  banners: initialBanners,
  operator = false,
}: {
  projectCode: string;
  initial: OwnProfile;
  characters: Character[];
  banners: Banner[];
  /** An operator of this tenant sees the way to the moderation queue (README Decisions "Moderation"). */
  operator?: boolean;
}) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const logout = useLogout(projectCode);
  const [profile, setProfile] = useState(initial);
  const [characters, setCharacters] = useState(initialCharacters);
  const [banners, setBanners] = useState(initialBanners);
  const [busy, setBusy] = useState(false);
  /** The upload under way (avatar or photo) and the fraction of its bytes sent. */
  const [uploading, setUploading] = useState<{ kind: "avatar" | "photo"; value: number } | null>(null);
  const [pendingGender, setPendingGender] = useState<number | null>(null);
  const [confirmStep, setConfirmStep] = useState<0 | 1 | 2>(0);
  const [shareOpen, setShareOpen] = useState(false);
  const [coordinates, setCoordinates] = useState(initial.latitude != null && initial.longitude != null ? `${initial.latitude},${initial.longitude}` : "");
  const nicknameTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const avatarInput = useRef<HTMLInputElement>(null);
  const photoInput = useRef<HTMLInputElement>(null);

  // The server's switch is the truth (it decides whether others' originals reach this member); the page's copy follows it.
  useEffect(() => setSafeMode(initial.safeMode), [initial.safeMode]);
  useEffect(() => {
    // §8: members whose avatar is unqualified cannot see others' avatars (90 s notice).
    if (initial.avator && !initial.qualify) toast(t("errors:403206"), "long", TOAST_DURATION.long);
  }, [initial.avator, initial.qualify, t, toast]);

  async function save(patch: Partial<OwnProfile> & { coordinates?: string; language?: string }, quiet = false) {
    setBusy(true);
    const body = await profiles.updateProfile(profile.memberId, patch);
    setBusy(false);
    if ("info" in body) {
      setProfile(body.info);
      if (!quiet) toast(t("saved"), "success");
      if (patch.nickname !== undefined) localStorage.setItem("nickname", body.info.nickname);
      return true;
    }
    toast(errorText(t, body), "error");
    return false;
  }

  function editNickname(value: string) {
    setProfile((p) => ({ ...p, nickname: value }));
    // §5: the nickname is saved on every edit.
    clearTimeout(nicknameTimer.current);
    nicknameTimer.current = setTimeout(() => void save({ nickname: value }, true), 600);
  }

  async function uploadAvatar(file: File) {
    const data = new FormData();
    data.set("file", await squareImage(file), file.name);
    data.set("type", "avatar");
    setBusy(true);
    setUploading({ kind: "avatar", value: 0 });
    const body = await uploadWithProgress<UploadInfo>(`/private/core/files/${projectCode.toUpperCase()}/${profile.memberId}`, data, (value) => setUploading({ kind: "avatar", value }));
    setUploading(null);
    setBusy(false);
    if (!("info" in body)) return toast(errorText(t, body), "error");
    setProfile((p) => ({ ...p, avator: body.info.url, qualify: Boolean(body.info.qualify), unqualifiedCount: body.info.unqualifiedCount ?? p.unqualifiedCount }));
    localStorage.setItem("avator", body.info.url);
    toast(body.info.qualify ? t("uploadSuccessfully") : t("avatarUnqualified"), body.info.qualify ? "long" : "warning", body.info.qualify ? 9000 : undefined);
  }

  async function uploadPhoto(file: File) {
    const data = new FormData();
    data.set("file", file);
    data.set("type", "photo");
    setBusy(true);
    setUploading({ kind: "photo", value: 0 });
    const up = await uploadWithProgress<UploadInfo>(`/private/core/files/${projectCode.toUpperCase()}/${profile.memberId}`, data, (value) => setUploading({ kind: "photo", value }));
    setUploading(null);
    if (!("info" in up)) {
      setBusy(false);
      return toast(errorText(t, up), "error");
    }
    const created = await profiles.addBanner(profile.memberId, { image: up.info.url, pickable: true, width: up.info.width, height: up.info.height });
    setBusy(false);
    if ("info" in created) {
      setBanners((list) => [created.info, ...list]);
      toast(t("uploadSuccessfully"), "success", 9000);
    } else toast(errorText(t, created), "error");
  }

  async function removePhoto(idBanner: number) {
    const body = await profiles.deleteBanner(profile.memberId, idBanner);
    if ("info" in body) {
      setBanners((list) => list.filter((b) => b.idBanner !== idBanner));
      toast(t("photoDeleted"), "delete");
    } else toast(errorText(t, body), "error");
  }

  async function toggleCharacter(c: Character) {
    const body = await profiles.setCharacter(profile.memberId, c.idCharacter, !c.checked);
    if ("info" in body) setCharacters(body.info);
    else toast(errorText(t, body), "error");
  }

  async function submitDetails(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const patch: Record<string, unknown> = { introduction: text("introduction"), websiteUrl: text("websiteUrl").trim() };
    for (const h of HANDLES) patch[h] = text(h);
    if (text("birthday")) patch.birthday = text("birthday");
    if (text("safeword").trim()) patch.safeword = text("safeword");
    if (coordinates.trim()) patch.coordinates = coordinates.trim();
    await save(patch as Partial<OwnProfile>);
  }

  const introLength = profile.introduction.length;
  const nicknameMissing = !profile.nickname.trim();
  const avatarMissing = !profile.avator;

  return (
    <main className="page stack">
      <div className="section-head">
        <h1>{t("my.title")}</h1>
        <div className="row">
          {/* Password, language, alerts, who may reach me, invites, blocks and mutes, my data: README "Settings in one place". */}
          <Link className="button" to={`/${projectCode}/settings`}>
            {t("settings:open")}
          </Link>
          <button type="button" className="button" onClick={() => setShareOpen(true)}>
            {t("share.open")}
          </button>
        </div>
      </div>

      {profile.unqualifiedCount > 10 && (
        <p className="notice" role="status">
          {t("unqualifiedReminder", { count: profile.unqualifiedCount, limit: 20 })}
        </p>
      )}

      <section className="card stack" aria-labelledby="avatar-heading">
        <h2 id="avatar-heading">{t("my.avatar")}</h2>
        <div className={`my-profile-head ${avatarMissing ? "field-flag" : ""}`}>
          <Avatar profile={{ ...profile, blur: false }} size={96} />
          <div className="stack">
            <button type="button" className="button" disabled={busy} onClick={() => avatarInput.current?.click()}>
              {t("my.uploadAvatar")}
            </button>
            <input
              ref={avatarInput}
              type="file"
              accept="image/png,image/jpeg"
              hidden
              aria-label={t("my.avatarFile")}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = "";
                if (file) void uploadAvatar(file);
              }}
            />
            {uploading?.kind === "avatar" && <UploadProgress value={uploading.value} />}
            {avatarMissing && <span className="counter counter-warn">{t("my.avatarMissing")}</span>}
            {!avatarMissing && !profile.qualify && <span className="counter counter-warn">{t("my.avatarUnqualified")}</span>}
          </div>
        </div>
        <label className={`field ${nicknameMissing ? "field-flag field-invalid" : ""}`}>
          <span>{t("my.nickname")}</span>
          <input
            value={profile.nickname}
            maxLength={40}
            onChange={(e) => editNickname(e.currentTarget.value)}
            aria-invalid={nicknameMissing}
            aria-describedby={nicknameMissing ? "nickname-missing" : undefined}
          />
        </label>
        {nicknameMissing && (
          <span id="nickname-missing" className="counter counter-warn">
            {t("my.nicknameMissing")}
          </span>
        )}
      </section>

      <section className="card stack" aria-labelledby="role-heading">
        <h2 id="role-heading">{t("my.role")}</h2>
        <RadioGroup.Root
          className="radio-row"
          aria-labelledby="role-heading"
          value={pendingGender != null ? String(pendingGender) : profile.multiGender ? String(profile.multiGender) : ""}
          disabled={profile.genderLocked}
          onValueChange={(value) => {
            setPendingGender(Number(value));
            setConfirmStep(1);
          }}
        >
          {[1, 2, 3, 4, 5, 6].map((g) => (
            <RadioGroup.Item key={g} value={String(g)} className="chip" aria-label={genderLabel(t, g)}>
              {genderLabel(t, g)}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        {profile.genderLocked && <span className="counter">{t("my.roleLocked")}</span>}

        <h2 id="lookfor-heading">{t("my.lookFor")}</h2>
        <RadioGroup.Root
          className="radio-row"
          aria-labelledby="lookfor-heading"
          value={String(profile.lookFor)}
          onValueChange={(value) => void save({ lookFor: Number(value) })}
        >
          {[0, 1, 2, 3, 4, 5, 6].map((l) => (
            <RadioGroup.Item key={l} value={String(l)} className="chip" aria-label={lookForLabel(t, l)}>
              {lookForLabel(t, l)}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
      </section>

      <section className="card stack" aria-labelledby="switches-heading">
        <h2 id="switches-heading">{t("my.settings")}</h2>
        {(
          [
            ["isRainbow", t("my.rainbow"), profile.isRainbow, (v: boolean) => void save({ isRainbow: v })],
            ["safeMode", t("my.safeMode"), profile.safeMode, (v: boolean) => void save({ safeMode: v }).then((saved) => saved && setSafeMode(v))],
            ["closed", t("my.closed"), profile.closed, (v: boolean) => void save({ closed: v })],
            ["muted", t("my.muted"), profile.muted, (v: boolean) => void save({ muted: v })],
          ] as const
        ).map(([key, label, checked, onChange]) => (
          <div className="switch-row" key={key}>
            <label htmlFor={`switch-${key}`}>{label}</label>
            <Switch.Root id={`switch-${key}`} className="switch" checked={checked} onCheckedChange={onChange}>
              <Switch.Thumb className="switch-thumb" />
            </Switch.Root>
          </div>
        ))}
      </section>

      <section className="card stack" aria-labelledby="characters-heading">
        <h2 id="characters-heading">{t("my.characters")}</h2>
        <div className="filters" role="group" aria-labelledby="characters-heading">
          {characters.map((c) => (
            <button key={c.idCharacter} type="button" className="chip" aria-pressed={c.checked} onClick={() => void toggleCharacter(c)}>
              {characterLabel(t, c.title)}
            </button>
          ))}
        </div>
      </section>

      <form className="card form" onSubmit={submitDetails} aria-labelledby="details-heading">
        <h2 id="details-heading">{t("my.details")}</h2>
        <label className="field">
          <span>{t("my.birthday")}</span>
          <input type="date" name="birthday" defaultValue={profile.birthday ?? ""} />
        </label>
        <label className="field">
          <span>{t("my.safeword")}</span>
          <input name="safeword" defaultValue={profile.safeword} maxLength={100} />
        </label>
        <label className="field">
          <span>{t("my.introduction")}</span>
          <textarea
            name="introduction"
            rows={15}
            maxLength={2000}
            value={profile.introduction}
            onChange={(e) => {
              const introduction = e.currentTarget.value;
              setProfile((p) => ({ ...p, introduction }));
            }}
            aria-describedby="intro-counter"
          />
        </label>
        <span id="intro-counter" className={`counter ${introLength < 150 || introLength > 300 ? "counter-warn" : ""}`}>
          {t("my.introCounter", { count: introLength })}
        </span>
        {HANDLES.map((h) => (
          <label className="field" key={h}>
            <span>{t(`contact.${h}`)}</span>
            <input name={h} defaultValue={profile[h]} maxLength={100} />
          </label>
        ))}
        <label className="field">
          <span>{t("contact.websiteUrl")}</span>
          <input name="websiteUrl" type="url" defaultValue={profile.websiteUrl} placeholder="https://" />
        </label>
        <label className="field">
          <span>{t("my.coordinates")}</span>
          <input value={coordinates} onChange={(e) => setCoordinates(e.currentTarget.value)} placeholder="25.033,121.565" inputMode="decimal" />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t("common:save")}
        </button>
      </form>

      <section className="card stack" aria-labelledby="photos-heading">
        <div className="section-head">
          <h2 id="photos-heading">{t("my.photos")}</h2>
          <div className="row">
            <button type="button" className="button" disabled={busy} onClick={() => photoInput.current?.click()}>
              {t("my.addPhoto")}
            </button>
            <Link className="button" to={`/${projectCode}/albums`}>
              {t("my.albums")}
            </Link>
          </div>
          <input
            ref={photoInput}
            type="file"
            accept="image/png,image/jpeg"
            hidden
            aria-label={t("my.photoFile")}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (file) void uploadPhoto(file);
            }}
          />
        </div>
        {uploading?.kind === "photo" && <UploadProgress value={uploading.value} />}
        {banners.length === 0 ? (
          <p className="muted">{t("my.noPhotos")}</p>
        ) : (
          <ul className="banner-strip" aria-label={t("my.photos")}>
            {banners.map((b) => (
              <li key={b.idBanner}>
                <img src={b.image} alt={t("photoAlt", { name: profile.nickname })} width={b.width} height={b.height} loading="lazy" />
                <div className="banner-actions">
                  <button type="button" className="chip" onClick={() => setShareOpen(true)}>
                    {t("share.open")}
                  </button>
                  <button type="button" className="chip" onClick={() => void removePhoto(b.idBanner)}>
                    {t("common:delete")}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <MySocialLists projectCode={projectCode} />
      <ProfileSubmembers projectCode={projectCode} memberNo={profile.simpleCode} multiGender={profile.multiGender} />
      <MemberChatMessages projectCode={projectCode} memberNo={profile.simpleCode} />

      {operator && (
        <Link className="button" to={`/${projectCode}/moderation`}>
          {t("moderation:link")}
        </Link>
      )}
      <button type="button" className="button button-danger" onClick={() => void logout()}>
        {t("common:logout")}
      </button>
      <p className="version">{t("version", { version: APP_VERSION })}</p>

      <Dialog open={shareOpen} onOpenChange={setShareOpen} title={t("share.title")} description={t("share.description")} returnFocus>
        <SharePanel projectCode={projectCode} memberNo={profile.simpleCode} nickname={profile.nickname} />
        <div className="dialog-actions">
          <DialogClose>{t("common:close")}</DialogClose>
        </div>
      </Dialog>

      <Dialog
        kind="alert"
        open={confirmStep > 0}
        title={confirmStep === 1 ? t("roleConfirm.title") : t("roleConfirm.againTitle")}
        description={confirmStep === 1 ? t("roleConfirm.body", { role: genderLabel(t, pendingGender) }) : t("roleConfirm.againBody")}
        returnFocus
      >
        <div className="dialog-actions">
          <DialogClose
            onClick={() => {
              // §4: cancel clears the selection.
              setPendingGender(null);
              setConfirmStep(0);
            }}
          >
            {t("common:cancel")}
          </DialogClose>
          <DialogAction
            onClick={async (e) => {
              if (confirmStep === 1) {
                e.preventDefault();
                setConfirmStep(2);
                return;
              }
              setConfirmStep(0);
              if (pendingGender != null) await save({ multiGender: pendingGender });
              setPendingGender(null);
            }}
          >
            {t("common:confirm")}
          </DialogAction>
        </div>
      </Dialog>
    </main>
  );
}
