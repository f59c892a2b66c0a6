import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { isOk } from "../../../worker/contract/envelope";
import type { FollowRequestItem, } from "../../../worker/contract/social";
import { Avatar, publicProfileHref } from "../../components/avatar";
import { useToast } from "../../components/toast";
import * as social from "../../api/social-api";
import { errorText } from "../../lib/error-text";

type Answer = "accept" | "decline";

/** Accepts or declines `memberNo`'s follow request (README Decisions "Approve followers"); true when it worked. */
function useAnswer() {
  const { t } = useTranslation("followers");
  const toast = useToast();
  return async (memberNo: string, name: string, answer: Answer) => {
    const body = await social.answerFollowRequest(memberNo, answer);
    if (!isOk(body)) {
      toast(errorText(t, body), "error");
      return false;
    }
    toast(answer === "accept" ? t("accepted", { name }) : t("declined"), "success");
    return true;
  };
}

/**
 * The member's pending follow requests on the Chats (Social) tab, each with Accept and Decline. Shown only while
 * there are some; `refresh` changes when the inbox stream says something new arrived.
 */
export function FollowRequests({ refresh = 0 }: { refresh?: number }) {
  const { t } = useTranslation("followers");
  const projectCode = (useParams().projectCode ?? "smp").toLowerCase();
  const answer = useAnswer();
  const [items, setItems] = useState<FollowRequestItem[]>([]);
  const load = useCallback(async () => {
    const body = await social.followRequests();
    if (isOk(body)) setItems(body.info.items);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `refresh` changes when the inbox stream says something new arrived
  useEffect(() => void load(), [load, refresh]);
  if (items.length === 0) return null;
  return (
    <section className="chat-requests follow-requests" aria-label={t("requests")}>
      <h2>
        {t("requests")} <span className="badge">{items.length}</span>
      </h2>
      <p className="muted">{t("requestsHint")}</p>
      <ul>
        {items.map((item) => {
          const name = item.profile.nickname || item.profile.simpleCode;
          const decide = async (choice: Answer) => {
            if (await answer(item.profile.simpleCode, name, choice)) setItems((list) => list.filter((i) => i.idFollowRequest !== item.idFollowRequest));
          };
          return (
            <li key={item.idFollowRequest} className="chat-request">
              <Link className="row" to={publicProfileHref(projectCode, item.profile.simpleCode)}>
                <Avatar profile={item.profile} size={36} decorative />
                <span>{name}</span>
              </Link>
              <div className="row">
                <button type="button" className="button button-primary" aria-label={`${t("accept")}: ${name}`} onClick={() => void decide("accept")}>
                  {t("accept")}
                </button>
                <button type="button" className="button" aria-label={`${t("decline")}: ${name}`} onClick={() => void decide("decline")}>
                  {t("decline")}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Accept / Decline beside a "follow request" notification. */
export function FollowRequestNoticeActions({ memberNo, name }: { memberNo: string | null; name: string }) {
  const { t } = useTranslation("followers");
  const answer = useAnswer();
  const [done, setDone] = useState<Answer | null>(null);
  if (!memberNo || done) return done === "accept" ? <span className="person-meta">{t("accepted", { name })}</span> : null;
  const decide = async (choice: Answer) => {
    if (await answer(memberNo, name, choice)) setDone(choice);
  };
  return (
    <span className="entry-actions">
      <button type="button" className="button button-primary" onClick={() => void decide("accept")}>
        {t("accept")}
      </button>
      <button type="button" className="button" onClick={() => void decide("decline")}>
        {t("decline")}
      </button>
    </span>
  );
}

/** The notification's line, in the followers namespace. */
export function FollowRequestText({ name }: { name: string }) {
  const { t } = useTranslation("followers");
  return <span className="notice-text">{t("notification", { name })}</span>;
}
