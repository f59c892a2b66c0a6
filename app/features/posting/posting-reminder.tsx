import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { PostingStatus } from "../../../worker/contract/social";
import { useFormat } from "../../i18n/use-format";
import { readSession } from "../../lib/session-keys";
import { postingStatus } from "../../api/posting-api";

/** Codes of the §5/§6/§8 posting rules (worker/features/members/posting-rules.ts): after one, the status is read again. */
export const POSTING_CODES = new Set(["403203", "403204", "403205", "403207", "403208", "403209"]);

/**
 * The member's own posting status (GET /core/posting-status), read once per composer and again after a refusal.
 * `kind` "send" is a one-to-one room: only the sending rules apply there.
 */
export function usePostingStatus(kind: "post" | "send" = "post") {
  const [status, setStatus] = useState<PostingStatus | null>(null);
  const reload = useCallback(async () => {
    if (!readSession()) return;
    const body = await postingStatus();
    if ("info" in body) setStatus(body.info);
  }, []);
  useEffect(() => void reload(), [reload]);
  const refusal = status ? status[kind] : null;
  return { status, kind, refused: Boolean(refusal), reload };
}

/**
 * §5 "Sending without nickname or avatar shows a reminder", §8 incomplete-profile reminder and posting pause: shown
 * above a composer before anything is sent, with the way to fix it (My profile's avatar upload).
 */
export function PostingReminder({ projectCode, posting }: { projectCode: string; posting: ReturnType<typeof usePostingStatus> }) {
  const { t } = useTranslation("posting");
  const format = useFormat();
  const { status, kind } = posting;
  if (!status) return null;
  const refusal = status[kind];
  const profileLink = `/${projectCode.toLowerCase()}/profile#avatar-heading`;
  if (status.suspended) {
    return (
      <div className="posting-reminder posting-paused" role="status">
        <strong>{t("pausedTitle")}</strong>
        <p>{status.suspendedUntil ? t("pausedUntil", { date: format.dateTime(status.suspendedUntil) }) : t("pausedUntilLifted")}</p>
        <Link to={`/${projectCode.toLowerCase()}/message`}>{t("pausedNotice")}</Link>
      </div>
    );
  }
  if (refusal?.returnCode === "403209") {
    return (
      <div className="posting-reminder posting-paused" role="status">
        <strong>{t("reportBlocked")}</strong>
      </div>
    );
  }
  const avatarProblem = kind === "post" && status.avatar !== "ok";
  if (!avatarProblem && !status.nicknameMissing) return null;
  return (
    <div className="posting-reminder" role="status">
      <strong>{avatarProblem ? t("incompleteTitle") : t("nicknameOnlyTitle")}</strong>
      <ul>
        {status.nicknameMissing && <li>{t("nicknameMissing")}</li>}
        {avatarProblem && <li>{status.avatar === "missing" ? t("avatarMissing") : t("avatarUnqualified")}</li>}
      </ul>
      {avatarProblem && <p className="muted small">{t("whyAvatar")}</p>}
      <Link className="button button-primary" to={profileLink}>
        {avatarProblem ? t("fixAvatar") : t("fixProfile")}
      </Link>
    </div>
  );
}

/** The reminder for a composer that mounts only when opened (dialogs): reads the status itself. */
export function PostingReminderSelf({ projectCode }: { projectCode: string }) {
  const posting = usePostingStatus("post");
  return <PostingReminder projectCode={projectCode} posting={posting} />;
}
