import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { UploadInfo } from "../../../worker/contract/profiles";
import { Avatar } from "../../components/avatar";
import { useToast } from "../../components/toast";
import { UploadProgress } from "../../components/upload-progress";
import { errorText } from "../../lib/error-text";
import { uploadWithProgress } from "../../lib/upload";
import type { ProfileEditor } from "./use-profile-editor";

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

/** Avatar (upload, §5 qualification) and nickname (§5: saved on every edit). */
export function MyAvatarSection({ projectCode, editor }: { projectCode: string; editor: ProfileEditor }) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const { profile, setProfile, save, busy, setBusy } = editor;
  /** The fraction of the avatar's bytes sent while it uploads. */
  const [uploading, setUploading] = useState<number | null>(null);
  const nicknameTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const avatarInput = useRef<HTMLInputElement>(null);
  const nicknameMissing = !profile.nickname.trim();
  const avatarMissing = !profile.avator;

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
    setUploading(0);
    const body = await uploadWithProgress<UploadInfo>(`/private/core/files/${projectCode.toUpperCase()}/${profile.memberId}`, data, (value) => setUploading(value));
    setUploading(null);
    setBusy(false);
    if (!("info" in body)) return toast(errorText(t, body), "error");
    setProfile((p) => ({ ...p, avator: body.info.url, qualify: Boolean(body.info.qualify), unqualifiedCount: body.info.unqualifiedCount ?? p.unqualifiedCount }));
    localStorage.setItem("avator", body.info.url);
    toast(body.info.qualify ? t("uploadSuccessfully") : t("avatarUnqualified"), body.info.qualify ? "long" : "warning", body.info.qualify ? 9000 : undefined);
  }

  return (
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
          {uploading !== null && <UploadProgress value={uploading} />}
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
  );
}
