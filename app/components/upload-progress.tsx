import { useTranslation } from "react-i18next";

/**
 * The bar every upload shows while its bytes travel (fed by `uploadWithProgress`, XMLHttpRequest upload events):
 * a native <progress> (role progressbar, its value read by screen readers) and the percentage beside it.
 */
export function UploadProgress({ value, label }: { value: number; label?: string }) {
  const { t } = useTranslation();
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="upload-progress">
      <progress value={percent} max={100} aria-label={label ?? t("upload.label")} />
      <span className="upload-progress-text" aria-hidden="true">
        {t("upload.percent", { percent })}
      </span>
    </div>
  );
}
