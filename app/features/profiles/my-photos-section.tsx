import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Banner, UploadInfo } from "../../../worker/contract/profiles";
import { useToast } from "../../components/toast";
import { UploadProgress } from "../../components/upload-progress";
import { errorText } from "../../lib/error-text";
import { uploadWithProgress } from "../../lib/upload";
import * as profiles from "../../api/profiles-api";
import type { ProfileEditor } from "./use-profile-editor";

/** The member's photos (§3 banners): add (upload, then a banner), share, delete; the way to albums. */
export function MyPhotosSection({ projectCode, editor, initial, onShare }: { projectCode: string; editor: ProfileEditor; initial: Banner[]; onShare: () => void }) {
  const { t } = useTranslation("profiles");
  const toast = useToast();
  const { profile, busy, setBusy } = editor;
  const [banners, setBanners] = useState(initial);
  /** The fraction of the photo's bytes sent while it uploads. */
  const [uploading, setUploading] = useState<number | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);

  async function uploadPhoto(file: File) {
    const data = new FormData();
    data.set("file", file);
    data.set("type", "photo");
    setBusy(true);
    setUploading(0);
    const up = await uploadWithProgress<UploadInfo>(`/private/core/files/${projectCode.toUpperCase()}/${profile.memberId}`, data, (value) => setUploading(value));
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

  return (
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
      {uploading !== null && <UploadProgress value={uploading} />}
      {banners.length === 0 ? (
        <p className="muted">{t("my.noPhotos")}</p>
      ) : (
        <ul className="banner-strip" aria-label={t("my.photos")}>
          {banners.map((b) => (
            <li key={b.idBanner}>
              <img src={b.image} alt={t("photoAlt", { name: profile.nickname })} width={b.width} height={b.height} loading="lazy" />
              <div className="banner-actions">
                <button type="button" className="chip" onClick={onShare}>
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
  );
}
