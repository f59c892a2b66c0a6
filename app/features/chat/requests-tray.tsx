import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { MessageRequest } from "../../../worker/contract/chat";
import { isOk } from "../../../worker/contract/envelope";
import { useToast } from "../../components/toast";
import * as chat from "../../api/chat-api";
import { errorText } from "../../lib/error-text";
import { REQUESTS_FILTERS_ANCHOR } from "../safety/requests-filters-section";
import { RevealableAvatar, StrangerSettingsLink } from "../stranger-media/stranger-reveal";

type Decision = "accept" | "decline" | "declineBlock" | "declineAll";

/**
 * The requests tray: a stranger's messages wait here until accepted or declined (README Decisions "Filters for
 * requests and notifications"). Every decision is one server call; the sender is told nothing. Requests from
 * senders the member filters wait in the Filtered section, which opens on demand.
 */
export function RequestsTray({ requests: allRequests, onDecided }: { requests: MessageRequest[]; onDecided: () => void }) {
  const { t } = useTranslation("chat");
  const { t: tf } = useTranslation("requests-filters");
  const toast = useToast();
  const projectCode = useParams().projectCode ?? "smp";
  const [loadedFiltered, setFiltered] = useState<MessageRequest[]>([]);
  const [showFiltered, setShowFiltered] = useState(false);
  // Requests decided here leave both lists at once: the lists' reloads come a round trip later.
  const [decided, setDecided] = useState<ReadonlySet<number>>(new Set());
  const requests = allRequests.filter((r) => !decided.has(r.idRequest));
  const filtered = loadedFiltered.filter((r) => !decided.has(r.idRequest));
  const loadFiltered = useCallback(async () => {
    const body = await chat.filteredMessageRequests();
    if (isOk(body)) setFiltered(body.info);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a changed tray (a decision, a new request) reloads the filtered list too
  useEffect(() => void loadFiltered(), [loadFiltered, allRequests]);

  async function decide(request: MessageRequest, decision: Decision) {
    const body =
      decision === "accept" || decision === "decline"
        ? await chat.decideMessageRequest(request.idRequest, decision)
        : await chat.declineMessageRequest(request.idRequest, decision === "declineBlock" ? "decline-block" : "decline-all");
    if (!isOk(body)) toast(errorText(t, body), "error");
    else {
      setDecided((ids) => new Set(ids).add(request.idRequest));
      if (decision !== "accept") toast(tf(decision === "decline" ? "declined" : decision === "declineBlock" ? "declinedBlocked" : "declinedAll"), "success");
    }
    onDecided();
    void loadFiltered();
  }

  if (requests.length === 0 && filtered.length === 0) return null;
  const item = (r: MessageRequest) => (
    <li key={r.idRequest} className="chat-request">
      <RevealableAvatar profile={r.profile} />
      <span>{t("requestFrom", { name: r.profile.nickname || r.profile.simpleCode, count: r.count })}</span>
      <div className="row" style={{ flexWrap: "wrap" }}>
        <button type="button" className="button button-primary" onClick={() => void decide(r, "accept")}>
          {t("accept")}
        </button>
        <button type="button" className="button" onClick={() => void decide(r, "decline")}>
          {tf("decline")}
        </button>
        <button type="button" className="button button-danger" onClick={() => void decide(r, "declineBlock")}>
          {tf("declineBlock")}
        </button>
        <button type="button" className="button" onClick={() => void decide(r, "declineAll")}>
          {tf("declineAll")}
        </button>
      </div>
    </li>
  );
  return (
    <section className="chat-requests" aria-label={t("requests")}>
      <h2>
        {t("requests")} <span className="badge">{requests.length}</span>
      </h2>
      <StrangerSettingsLink />
      <ul>{requests.map(item)}</ul>
      <div className="row" style={{ flexWrap: "wrap", marginTop: "0.5rem" }}>
        {filtered.length > 0 && (
          <button type="button" className="button" aria-expanded={showFiltered} onClick={() => setShowFiltered((open) => !open)}>
            {tf("filtered", { count: filtered.length })}
          </button>
        )}
        <Link className="button" to={`/${projectCode}/settings#${REQUESTS_FILTERS_ANCHOR}`}>
          {tf("settingsLink")}
        </Link>
      </div>
      {showFiltered && (
        <section aria-label={tf("filteredTitle")}>
          <h3>{tf("filteredTitle")}</h3>
          <ul>{filtered.map(item)}</ul>
        </section>
      )}
    </section>
  );
}
