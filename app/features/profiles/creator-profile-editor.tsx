import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreatorProfileBody } from "../../../worker/contract/creator";
import { MAX_CREATOR_LINKS } from "../../../worker/contract/creator.constants";
import type { UploadInfo } from "../../../worker/contract/profiles";
import { TOAST_DURATION, useToast } from "../../components/toast";
import { errorText } from "../../lib/error-text";
import { uploadWithProgress } from "../../lib/upload";
import { creatorProfile, saveCreatorProfile } from "../../api/profiles-api";

/** A link being edited; `key` only tells React which row is which while links are added and removed. */
type Link = { url: string; title: string; logo: string; key: number };
type Form = Omit<CreatorProfileBody, "links"> & { links: Link[] };
const EMPTY: Form = { introduction: "", websiteUrl: "", company: "", title: "", location: "", links: [] };
let nextKey = 0;

/**
 * My profile: the §3 creator profile (README Decisions "DNA pairing and creator profiles"). Loads and saves itself;
 * logos go through the media pipeline as uploads of type `logo` (the server keeps only its own re-encoded copy).
 */
export function CreatorProfileEditor({ projectCode, memberId, memberNo }: { projectCode: string; memberId: string; memberNo: string }) {
  const { t } = useTranslation("creator");
  const toast = useToast();
  const [form, setForm] = useState<Form>(EMPTY);
  const [busy, setBusy] = useState(false);
  const logoInput = useRef<HTMLInputElement>(null);
  const logoFor = useRef<number>(-1);
  const P = projectCode.toUpperCase();

  useEffect(() => {
    let live = true;
    void creatorProfile(P, memberNo).then((body) => {
      if (!live || !("info" in body) || !body.info) return;
      const { introduction, websiteUrl, company, title, location, links } = body.info;
      setForm({ introduction, websiteUrl, company, title, location, links: links.map((l) => ({ url: l.url, title: l.title, logo: l.logo, key: nextKey++ })) });
    });
    return () => {
      live = false;
    };
  }, [P, memberNo]);

  const field = (key: "websiteUrl" | "company" | "title" | "location") => (
    <label className="field" key={key}>
      <span>{t(`editor.${key}`)}</span>
      <input
        name={`creator-${key}`}
        type={key === "websiteUrl" ? "url" : "text"}
        value={form[key]}
        maxLength={key === "websiteUrl" ? 500 : 100}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setForm((f) => ({ ...f, [key]: value }));
        }}
      />
    </label>
  );
  const setLink = (i: number, change: Partial<Omit<Link, "key">>) => setForm((f) => ({ ...f, links: f.links.map((l, j) => (j === i ? { ...l, ...change } : l)) }));

  async function uploadLogo(file: File) {
    const i = logoFor.current;
    const data = new FormData();
    data.set("file", file);
    data.set("type", "logo");
    setBusy(true);
    const body = await uploadWithProgress<UploadInfo>(`/private/core/files/${P}/${memberId}`, data, () => undefined);
    setBusy(false);
    if (!("info" in body)) return toast(errorText(t, body), "error");
    setLink(i, { logo: body.info.url });
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const links = form.links.map(({ url, title, logo }) => ({ url, title, logo }));
    const body = await saveCreatorProfile(memberId, { ...form, links });
    setBusy(false);
    if ("info" in body) toast(t("editor.saved"), "success", TOAST_DURATION.success);
    else toast(errorText(t, body), "error");
  }

  return (
    <form className="card form" onSubmit={submit} aria-labelledby="creator-heading">
      <h2 id="creator-heading">{t("editor.heading")}</h2>
      <p className="muted">{t("editor.lead")}</p>
      <label className="field">
        <span>{t("editor.introduction")}</span>
        <textarea
          name="creator-introduction"
          rows={5}
          maxLength={2000}
          value={form.introduction}
          onChange={(e) => {
            const introduction = e.currentTarget.value;
            setForm((f) => ({ ...f, introduction }));
          }}
        />
      </label>
      {field("company")}
      {field("title")}
      {field("location")}
      {field("websiteUrl")}
      <fieldset className="stack creator-links">
        <legend>{t("editor.links", { count: form.links.length, max: MAX_CREATOR_LINKS })}</legend>
        {form.links.map((link, i) => (
          <div className="card stack" key={link.key} role="group" aria-label={t("editor.linkGroup", { n: i + 1 })}>
            <label className="field">
              <span>{t("editor.linkUrl", { n: i + 1 })}</span>
              <input type="url" value={link.url} maxLength={500} required onChange={(e) => setLink(i, { url: e.currentTarget.value })} />
            </label>
            <label className="field">
              <span>{t("editor.linkTitle", { n: i + 1 })}</span>
              <input value={link.title} maxLength={80} onChange={(e) => setLink(i, { title: e.currentTarget.value })} />
            </label>
            <div className="row">
              {link.logo && <img className="creator-logo" src={link.logo} alt={t("editor.logoAlt", { n: i + 1 })} width={40} height={40} />}
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => {
                  logoFor.current = i;
                  logoInput.current?.click();
                }}
              >
                {t(link.logo ? "editor.changeLogo" : "editor.addLogo", { n: i + 1 })}
              </button>
              <button type="button" className="button button-danger" onClick={() => setForm((f) => ({ ...f, links: f.links.filter((_, j) => j !== i) }))}>
                {t("editor.removeLink", { n: i + 1 })}
              </button>
            </div>
          </div>
        ))}
        <button
          type="button"
          className="button"
          disabled={form.links.length >= MAX_CREATOR_LINKS}
          onClick={() => setForm((f) => ({ ...f, links: [...f.links, { url: "", title: "", logo: "", key: nextKey++ }] }))}
        >
          {t("editor.addLink")}
        </button>
        <input
          ref={logoInput}
          type="file"
          accept="image/png,image/jpeg"
          hidden
          aria-label={t("editor.logoFile")}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = "";
            if (file) void uploadLogo(file);
          }}
        />
      </fieldset>
      <button type="submit" className="button button-primary" disabled={busy}>
        {t("editor.save")}
      </button>
    </form>
  );
}
