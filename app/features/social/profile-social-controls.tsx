import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { isOk } from "../../../worker/contract/envelope";
import { BLOCK_INDICATORS } from "../../../worker/contract/social.constants";
import type { FriendStatus, Relationship, SafetyDuration } from "../../../worker/contract/social";
import { LoginPrompt } from "../../components/avatar";
import { Dialog, DialogClose, FormDialog } from "../../components/dialog";
import { useToast } from "../../components/toast";
import { errorText } from "../../lib/error-text";
import { lateModule, useLateModule } from "../../lib/late-module";
import { useSignedIn } from "../shell/viewer";
import * as social from "../../api/social-api";
import { MEMBER_HIDDEN_EVENT, useTwoStep } from "./social-client";

export type ProfileSocialControlsProps = {
  projectCode: string;
  memberNo: string;
  nickname: string;
  relationship: Relationship | null;
};

const DURATIONS: SafetyDuration[] = ["24h", "7d", "30d", "forever"];

/** What only the open leave-message dialog shows: fetched with its first opening, not with the profile. */
const leaveMessageParts = lateModule(() =>
  Promise.all([import("./verification-prompt"), import("../posting/posting-reminder")]).then(([verification, posting]) => ({
    VerificationPrompt: verification.VerificationPrompt,
    PostingReminderSelf: posting.PostingReminderSelf,
  })),
);

/**
 * Public profile controls owned by the social feature: follow heart (optimistic, reverts on
 * failure — §4/§8), friend request/accept/reject, favourite, leave-message dialog (kycStatus 1, §5),
 * and the §4 block control (arm for 3 s, 10 indicators) with timed block/mute and report.
 */
export function ProfileSocialControls({ projectCode, memberNo, nickname, relationship }: ProfileSocialControlsProps) {
  const { t } = useTranslation("social");
  const { t: tf } = useTranslation("followers");
  const toast = useToast();
  const name = nickname || memberNo;
  const [following, setFollowing] = useState(relationship?.following ?? false);
  // README Decisions "Approve followers": a follow of a member who approves followers waits as a request.
  const [requested, setRequested] = useState(relationship?.followRequested ?? false);
  const [friend, setFriend] = useState<FriendStatus>(relationship?.friendStatus ?? "none");
  const [favourite, setFavourite] = useState(relationship?.favourite ?? false);
  const [blocking, setBlocking] = useState(relationship?.blocking ?? null);
  const [muted, setMuted] = useState(relationship?.muted ?? null);
  const [duration, setDuration] = useState<SafetyDuration>("forever");
  const [count, setCount] = useState<number | null>(null);
  const signedIn = useSignedIn();

  useEffect(() => {
    if (!relationship || !signedIn) return;
    let live = true;
    void social.blockCount(memberNo).then((body) => {
      if (live && isOk(body)) setCount(body.info.count);
    });
    return () => {
      live = false;
    };
  }, [memberNo, relationship, signedIn]);

  const fail = (body: { returnCode: string; returnMessage: string }) => toast(errorText(t, body), "error");

  async function toggleFollow() {
    const before = { following, requested };
    const undo = following || requested;
    setFollowing(!undo);
    setRequested(false);
    // Unfollowing also withdraws a pending request (graph.service `unfollow`).
    const body = await social.setFollow(memberNo, !undo);
    if (!isOk(body)) {
      // §8: a failed follow or unfollow reverts the heart.
      setFollowing(before.following);
      setRequested(before.requested);
      toast(t("follow.failed"), "error");
      return;
    }
    setFollowing(body.info.followStatus === "following");
    setRequested(body.info.followStatus === "requested");
  }

  async function friendAction(action: "request" | "accept" | "reject") {
    const body = await social.friendAction(action, memberNo);
    if (isOk(body)) setFriend(body.info.friendStatus);
    else fail(body);
  }
  const removeFriend = useTwoStep(async () => {
    const body = await social.removeFriend(memberNo);
    if (isOk(body)) setFriend(body.info.friendStatus);
    else fail(body);
  });

  async function toggleFavourite() {
    const before = favourite;
    setFavourite(!before);
    const body = before ? await social.removeFavourite(memberNo) : await social.addFavourite(memberNo);
    if (!isOk(body)) {
      setFavourite(before);
      fail(body);
    }
  }

  // README Decisions "Block evasion and per-item reports": the block may also cover new accounts this person makes.
  const [alsoNewAccounts, setAlsoNewAccounts] = useState(false);
  // §4: the first tap arms for 3 s; a second tap inside the window creates the block and warns.
  const blockControl = useTwoStep(async () => {
    const body = await social.block(memberNo, duration, alsoNewAccounts);
    if (!isOk(body)) return fail(body);
    setBlocking({ idBlock: body.info.idBlock, expiresAt: body.info.expiresAt });
    setCount(body.info.count);
    setFollowing(false);
    setRequested(false);
    setFavourite(false);
    setFriend("none");
    toast(t("block.blocked", { name }), "warning");
  });
  const unblockControl = useTwoStep(async () => {
    if (!blocking) return;
    const body = await social.unblock(blocking.idBlock);
    if (!isOk(body)) return fail(body);
    setBlocking(null);
    setCount((n) => (n == null ? n : Math.max(0, n - 1)));
    toast(t("block.unblocked"), "success");
  });

  async function toggleMute() {
    const body = muted ? await social.unmute(memberNo) : await social.mute(memberNo, duration);
    if (!isOk(body)) return fail(body);
    setMuted(muted ? null : { expiresAt: (body.info as { expiresAt?: string | null }).expiresAt ?? null });
    toast(t(muted ? "mute.unmuted" : "mute.muted"), "success");
  }

  if (!relationship) {
    return (
      <p className="social-controls">
        <Link to={`/${projectCode.toLowerCase()}/login`}>{t("login")}</Link>
      </p>
    );
  }

  if (!signedIn) return <VisitorSocialControls projectCode={projectCode} name={name} />;

  const shown = Math.min(count ?? 0, BLOCK_INDICATORS);
  return (
    <section className="social-controls" aria-label={t("block.safety")}>
      {!blocking && (
        <div className="social-row">
          <button
            type="button"
            className="icon-button heart"
            aria-pressed={following || requested}
            aria-label={requested ? tf("cancelRequest", { name }) : following ? t("follow.unfollow", { name }) : t("follow.follow", { name })}
            onClick={() => void toggleFollow()}
          >
            {requested ? <span className="follow-requested">{tf("requested")}</span> : following ? "♥" : "♡"}
          </button>
          {friend === "none" && (
            <button type="button" className="button" onClick={() => void friendAction("request")}>
              {t("friend.add")}
            </button>
          )}
          {friend === "requested" && (
            <button type="button" className="button" onClick={() => void removeFriend.tap()}>
              {removeFriend.armed ? t("friend.confirmRemove") : t("friend.requested")}
            </button>
          )}
          {friend === "incoming" && (
            <>
              <button type="button" className="button button-primary" onClick={() => void friendAction("accept")}>
                {t("friend.accept")}
              </button>
              <button type="button" className="button" onClick={() => void friendAction("reject")}>
                {t("friend.reject")}
              </button>
            </>
          )}
          {friend === "friends" && (
            <button type="button" className="button toggle" aria-pressed="true" onClick={() => void removeFriend.tap()}>
              {removeFriend.armed ? t("friend.confirmRemove") : t("friend.friends")}
            </button>
          )}
          <button type="button" className="icon-button toggle" aria-pressed={favourite} aria-label={favourite ? t("favourite.remove") : t("favourite.add")} onClick={() => void toggleFavourite()}>
            {favourite ? "★" : "☆"}
          </button>
          <LeaveMessageDialog projectCode={projectCode} memberNo={memberNo} name={name} />
        </div>
      )}

      <div className="safety">
        <div className="social-row">
          <label className="social-row">
            <span className="safety-title">{t("block.duration")}</span>
            <select className="duration-select" value={duration} onChange={(event) => setDuration(event.target.value as SafetyDuration)}>
              {DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {t(`duration.${d}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        {!blocking && (
          <label className="social-row">
            <input type="checkbox" checked={alsoNewAccounts} onChange={(event) => setAlsoNewAccounts(event.target.checked)} />
            <span>{t("reporting:alsoNewAccounts")}</span>
          </label>
        )}
        <div className="social-row">
          {blocking ? (
            <button type="button" className={`button${unblockControl.armed ? " block-armed" : ""}`} onClick={() => void unblockControl.tap()}>
              {unblockControl.armed ? t("block.confirmUnblock") : t("block.unblock")}
            </button>
          ) : (
            <button type="button" className={`button button-danger${blockControl.armed ? " block-armed" : ""}`} onClick={() => void blockControl.tap()} aria-live="polite">
              {blockControl.armed ? t("block.armed") : t("block.block")}
            </button>
          )}
          <span className="block-indicators" role="img" aria-label={t("block.indicators", { count: shown })}>
            {Array.from({ length: BLOCK_INDICATORS }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the indicators are fixed slots
              <span key={i} className={i < shown ? "on" : undefined} />
            ))}
          </span>
        </div>
        <div className="social-row">
          {!blocking && (
            <button type="button" className="button toggle" aria-pressed={Boolean(muted)} onClick={() => void toggleMute()}>
              {muted ? t("mute.unmute") : t("mute.mute")}
            </button>
          )}
          {/* A report is also my lasting mute of them (README Decisions "Safety controls"): the toggle says so. */}
          <ReportDialog memberNo={memberNo} name={name} onReported={() => setMuted({ expiresAt: null })} />
        </div>
      </div>
    </section>
  );
}

/**
 * §6 a visitor sees the same follow heart, friend, favourite and leave-message controls; each opens the login
 * dialog (with sign-up) instead of a call that could only be refused.
 */
function VisitorSocialControls({ projectCode, name }: { projectCode: string; name: string }) {
  const { t } = useTranslation("social");
  const [loginOpen, setLoginOpen] = useState(false);
  const ask = () => setLoginOpen(true);
  return (
    <div className="social-controls">
      <div className="social-row">
        <button type="button" className="icon-button heart" aria-label={t("follow.follow", { name })} onClick={ask}>
          ♡
        </button>
        <button type="button" className="button" onClick={ask}>
          {t("friend.add")}
        </button>
        <button type="button" className="icon-button" aria-label={t("favourite.add")} onClick={ask}>
          ☆
        </button>
        <button type="button" className="button" onClick={ask}>
          {t("leave.open")}
        </button>
      </div>
      {loginOpen && <LoginPrompt projectCode={projectCode} forMembers onClose={() => setLoginOpen(false)} />}
    </div>
  );
}

/** §2 leave-message dialog: compose, submit, done, clear and close. §5/§8: unverified → warning 9 s. */
function LeaveMessageDialog({ projectCode, memberNo, name }: { projectCode: string; memberNo: string; name: string }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const [open, setOpen] = useState(false);
  // README Decisions "Verification": an unverified member is shown why and how to ask, in the same dialog.
  const [needKyc, setNeedKyc] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  // Could not fetch them (offline): the dialog closes again, and the next tap tries once more.
  const parts = useLateModule(leaveMessageParts, open, () => setOpen(false));

  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (!text.trim()) return toast(t("leave.empty"), "warning");
    setBusy(true);
    const body = await social.leaveMessage(memberNo, text);
    setBusy(false);
    if (isOk(body)) {
      setText("");
      setOpen(false);
      toast(t("leave.sent"), "success");
    } else if (body.returnCode === "403201") {
      setNeedKyc(true);
      toast(t("leave.needKyc"), "warning");
    } else {
      toast(errorText(t, body), "error");
    }
  }

  return (
    <Dialog
      open={open && parts !== null}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setNeedKyc(false);
      }}
      trigger={
        <button type="button" className="button">
          {t("leave.open")}
        </button>
      }
      title={t("leave.title", { name })}
      description={t("leave.title", { name })}
      descriptionClassName="visually-hidden"
    >
      {parts === null ? null : needKyc ? (
        <>
          <parts.VerificationPrompt projectCode={projectCode} />
          <div className="dialog-actions">
            <DialogClose>{t("common:close")}</DialogClose>
          </div>
        </>
      ) : (
      <form className="form" onSubmit={(event) => void send(event)}>
        <parts.PostingReminderSelf projectCode={projectCode} />
        <label className="field">
          <span>{t("leave.label")}</span>
          <textarea value={text} onChange={(event) => setText(event.target.value)} maxLength={2000} required />
        </label>
        <div className="dialog-actions">
          <DialogClose>{t("common:cancel")}</DialogClose>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t("leave.send")}
          </button>
        </div>
      </form>
      )}
    </Dialog>
  );
}

function ReportDialog({ memberNo, name, onReported }: { memberNo: string; name: string; onReported: () => void }) {
  const { t } = useTranslation("social");
  const { t: tSafety } = useTranslation("safety");
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");

  async function send(event: React.FormEvent) {
    event.preventDefault();
    const body = await social.report({ targetMemberNo: memberNo, reason });
    if (!isOk(body)) return toast(errorText(t, body), "error");
    setReason("");
    setOpen(false);
    // The server now hides this member's content for the reporter (README Decisions "Safety controls"); pieces of
    // the page that show it read again.
    onReported();
    window.dispatchEvent(new CustomEvent(MEMBER_HIDDEN_EVENT, { detail: memberNo }));
    toast(tSafety("report.hidden"), "success");
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="button">
          {t("report.open")}
        </button>
      }
      title={t("report.title", { name })}
      description={t("report.title", { name })}
      descriptionClassName="visually-hidden"
      submitLabel={t("report.send")}
      submitClassName="button button-danger"
      onSubmit={(event) => void send(event)}
    >
      <label className="field">
        <span>{t("report.reason")}</span>
        <textarea value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} />
      </label>
    </FormDialog>
  );
}
