import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/line-callback";
import { isOk } from "../../worker/contract/envelope";
import { AuthCard } from "../features/session/auth-card";
import { useFinishLogin } from "../features/session/use-finish-login";
import { LINE_INTENT_KEY, lineCallbackUrl } from "../features/line/line-start";
import * as line from "../api/line-api";
import { errorText } from "../lib/error-text";
import { readSession } from "../lib/session-keys";

export const meta: Route.MetaFunction = () => [{ title: "Velvet" }];

type Step = { kind: "working" } | { kind: "register" } | { kind: "failed"; message: string; back: "login" | "profile" };

/**
 * Where LINE sends the browser back (§7 redirectUrl; README Decisions "LINE login"). The code and state go to the
 * API once (the state is one-use), and leave the address bar at once. A LINE user new to this tenant confirms they
 * are an adult before the account exists, as the registration form asks (§1).
 */
export default function LineCallback({ params }: Route.ComponentProps) {
  const { t } = useTranslation("line");
  const finish = useFinishLogin(params.projectCode);
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: "working" });
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  const project = params.projectCode.toUpperCase();

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const search = new URLSearchParams(window.location.search);
    const code = search.get("code");
    const state = search.get("state");
    const intent = sessionStorage.getItem(LINE_INTENT_KEY) === "bind" ? "bind" : "login";
    sessionStorage.removeItem(LINE_INTENT_KEY);
    // The code must not stay in history or be shared with the address.
    window.history.replaceState(null, "", window.location.pathname);
    const back = intent === "bind" ? "profile" : "login";
    if (!code || !state) {
      setStep({ kind: "failed", message: t("callback.missing"), back });
      return;
    }
    const body = { code, state, redirectUrl: lineCallbackUrl(params.projectCode) };
    void (async () => {
      if (intent === "bind") {
        const memberId = readSession()?.memberId ?? "";
        const reply = await line.bindLine(memberId, body);
        if (isOk(reply)) navigate(`/${params.projectCode}/profile`, { replace: true });
        else setStep({ kind: "failed", message: errorText(t, reply), back });
        return;
      }
      const reply = await line.lineSignIn(project, body);
      if (!isOk(reply)) setStep({ kind: "failed", message: errorText(t, reply), back });
      else if ("needsRegistration" in reply.info) setStep({ kind: "register" });
      else finish(reply.info);
    })();
  }, [finish, navigate, params.projectCode, project, t]);

  async function register(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    const reply = await line.lineSignUp(project);
    setBusy(false);
    if (isOk(reply)) finish(reply.info);
    else setStep({ kind: "failed", message: errorText(t, reply), back: "login" });
  }

  if (step.kind === "register") {
    return (
      <AuthCard title={t("register.title")}>
        <p>{t("register.intro")}</p>
        <form onSubmit={register} className="form">
          <label className="check">
            <input name="adult" type="checkbox" required />
            <span>{t("register.adult")}</span>
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t("register.submit")}
          </button>
        </form>
        <p className="auth-switch">
          <Link to={`/${params.projectCode}/login`}>{t("register.haveAccount")}</Link>
        </p>
      </AuthCard>
    );
  }
  if (step.kind === "failed") {
    return (
      <AuthCard title={t("callback.failedTitle")}>
        <p role="alert">{step.message}</p>
        <p className="auth-switch">
          <Link to={`/${params.projectCode}/${step.back}`}>{step.back === "profile" ? t("callback.backToProfile") : t("callback.backToLogin")}</Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("callback.title")}>
      <p role="status">{t("callback.working")}</p>
    </AuthCard>
  );
}
