import { Switch } from "../../components/switch";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Payload } from "../../../worker/contract/chat";
import { readSession } from "../../lib/session-keys";
import { KEYS_EVENT, REREGISTERED_FLAG, verifiedKey } from "./e2e-names";
import { e2eCode, useE2eCodeForSend } from "./late-e2e";
import type { KeyReading, KeyState } from "./read-keys";
import { SendAnywayDialog, type SendAnywayAsk } from "./send-anyway-dialog";

type Ask = SendAnywayAsk;

/**
 * The end-to-end side of a one-to-one conversation (README Decisions "Verifiable end-to-end keys"): the safety
 * number both members compare, a "Mark as verified" switch kept in this browser only (the server must not be
 * trusted with it), a notice when the contact's keys differ from what this browser saw last, and the choices
 * before a message goes out unencrypted or to keys that changed after verification.
 */
export function useE2eConversation(peerNo: string | null, chatroomId: string) {
  const { t } = useTranslation("e2e");
  const [keys, setKeys] = useState<KeyState>({ status: "loading" });
  const [ask, setAsk] = useState<Ask | null>(null);
  const [reregistered, setReregistered] = useState(false);
  const alive = useRef(true);
  // The end-to-end code, once fetched: it brings the notice about this member's own new devices. Each refresh (mount,
  // a keys event, every send) tries again after a failed fetch.
  const [code, setCode] = useState(e2eCode.current);

  const refresh = useCallback(async () => {
    if (!peerNo) return null;
    const module = await e2eCode.fetch().catch(() => null);
    // Offline before the code came: the note shown offline before (no safety number), as when the keys cannot be read.
    const next: KeyReading = module ? await module.readKeys(peerNo) : { status: "noKeys" };
    if (alive.current) {
      if (module) setCode(() => module);
      setKeys(next);
      setReregistered(sessionStorage.getItem(REREGISTERED_FLAG) === "true");
    }
    return next;
  }, [peerNo]);

  useEffect(() => {
    alive.current = true;
    void refresh();
    const onKeys = (event: Event) => {
      if ((event as CustomEvent<string>).detail === peerNo) void refresh();
    };
    window.addEventListener(KEYS_EVENT, onKeys);
    return () => {
      alive.current = false;
      window.removeEventListener(KEYS_EVENT, onKeys);
    };
  }, [refresh, peerNo]);

  const confirm = (kind: Ask["kind"]) => new Promise<boolean>((resolve) => setAsk({ kind, resolve }));
  const codeForSend = useE2eCodeForSend();

  /** The payload to send: encrypted and signed, `plain` after the member chose so, or null (cancelled, or offline). */
  async function prepare(text: string): Promise<{ payload: Payload } | { plain: true } | null> {
    // Without the end-to-end code (offline) nothing is sent: the member keeps the text, not a downgrade question.
    const code = await codeForSend();
    if (!code) return null;
    const sealer = await code.sealerFor(await refresh().catch(() => null), chatroomId, confirm);
    if (sealer === null) return null;
    return sealer === "plain" ? { plain: true } : { payload: await sealer(text) };
  }

  // Keys are "ready" only once the end-to-end code has arrived (refresh), so `code` is there for both.
  function acknowledge() {
    const session = readSession();
    if (!session || !peerNo || !code || keys.status !== "ready") return;
    void code.rememberSeen(session.memberId, peerNo, keys.peerDevices, keys.peerSet).then(() => refresh());
    setKeys({ ...keys, changed: false });
  }

  function setVerified(on: boolean) {
    const session = readSession();
    if (!session || !peerNo || !code || keys.status !== "ready") return;
    if (on) {
      localStorage.setItem(verifiedKey(session.memberId, peerNo), keys.groups.join(""));
      void code.rememberSeen(session.memberId, peerNo, keys.peerDevices, keys.peerSet);
    } else localStorage.removeItem(verifiedKey(session.memberId, peerNo));
    setKeys({ ...keys, verified: on, wasVerified: false, changed: on ? false : keys.changed });
  }

  const answer = (send: boolean) => {
    ask?.resolve(send);
    setAsk(null);
  };
  const ui = peerNo ? (
    <div className="e2e-panel">
      {code && <code.NewDeviceNotices />}
      {reregistered && (
        <p className="e2e-notice" role="status">
          {t("reregistered")}{" "}
          <button type="button" className="link-button" onClick={() => {
              sessionStorage.removeItem(REREGISTERED_FLAG);
              setReregistered(false);
            }}
          >
            {t("ok")}
          </button>
        </p>
      )}
      {keys.status === "ready" && keys.changed && (
        <p className="e2e-notice e2e-notice-warn" role="alert">
          {t("keysChanged")}{" "}
          <button type="button" className="link-button" onClick={acknowledge}>
            {t("ok")}
          </button>
        </p>
      )}
      {keys.status === "noKeys" && <p className="e2e-notice muted">{t("noSafetyNumber")}</p>}
      {keys.status === "ready" && (
        <details className="e2e-safety">
          <summary>
            {keys.verified ? `✓ ${t("verified")}` : `🔒 ${t("encryptedOn")}`} · {t("safetyTitle")}
          </summary>
          <p className="muted">{t("safetyHint")}</p>
          <p className="e2e-safety-number" role="group" aria-label={t("safetyTitle")}>
            {keys.groups.map((group, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a group is its place in the number; two groups may be equal
              <span key={i}>{group}</span>
            ))}
          </p>
          <div className="e2e-row">
            <label htmlFor={`e2e-verified-${peerNo}`}>{t("markVerified")}</label>
            <Switch id={`e2e-verified-${peerNo}`} className="e2e-switch" checked={keys.verified} onCheckedChange={setVerified} thumbClassName="e2e-switch-thumb" />
          </div>
        </details>
      )}
      {ask && (
        <SendAnywayDialog ask={ask} onAnswer={answer} />
      )}
    </div>
  ) : null;

  return { ui, prepare };
}
