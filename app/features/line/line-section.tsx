import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isOk } from "../../../worker/contract/envelope";
import type { LineBinding } from "../../../worker/contract/line";
import { useToast } from "../../components/toast";
import { useFormat } from "../../i18n/use-format";
import * as line from "../../api/line-api";
import { errorText } from "../../lib/error-text";
import { readSession } from "../../lib/session-keys";
import { startLine } from "./line-start";

/**
 * My profile → LINE (§7 bind, unbind; README Decisions "LINE login"): link a LINE account to log in with it, or
 * unlink it while the account keeps a password. Hidden when LINE is not configured and nothing is linked.
 */
export function LineSection({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("line");
  const format = useFormat();
  const toast = useToast();
  const [memberId, setMemberId] = useState<string | null>(null);
  const [binding, setBinding] = useState<LineBinding | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const id = readSession()?.memberId ?? null;
    setMemberId(id);
    if (id) void line.lineBinding(id).then((body) => isOk(body) && setBinding(body.info));
  }, []);

  if (!memberId || !binding || (!binding.enabled && !binding.bound)) return null;

  async function bind() {
    setBusy(true);
    const failure = await startLine(projectCode, "bind", memberId ?? undefined);
    if (failure) {
      setBusy(false);
      toast(errorText(t, failure), "error");
    }
  }

  async function unbind() {
    setBusy(true);
    const body = await line.unbindLine(memberId ?? "");
    setBusy(false);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setBinding(body.info);
    toast(t("section.unbound_done"), "success");
  }

  return (
    <section className="card stack" aria-labelledby="line-heading">
      <h2 id="line-heading">{t("section.title")}</h2>
      <p>{binding.bound && binding.boundAt ? t("section.bound", { date: format.date(binding.boundAt) }) : t("section.unbound")}</p>
      {binding.bound && !binding.hasPassword && <p className="settings-row-hint">{t("section.noPassword")}</p>}
      <div className="line-section-actions">
        {!binding.bound && binding.enabled && (
          <button type="button" className="button line-button" disabled={busy} onClick={() => void bind()}>
            {t("section.bind")}
          </button>
        )}
        {binding.bound && binding.hasPassword && (
          <button type="button" className="button" disabled={busy} onClick={() => void unbind()}>
            {t("section.unbind")}
          </button>
        )}
      </div>
    </section>
  );
}
