import { Tabs } from "radix-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { isOk } from "../../../worker/contract/envelope";
import type { BlockItem, ListItem, } from "../../../worker/contract/social";
import { useToast } from "../../components/toast";
import { LocalTime, useFormat } from "../../i18n/use-format";
import * as social from "../../api/social-api";
import { errorText } from "../../lib/error-text";
import { Avatar } from "../../components/avatar";
import { profilePath, useMemberId, useTwoStep } from "./social-client";
import { ConnectionsHint } from "./connections-hint";

/** My profile blocks owned by the social feature: following, followers, blocked-by-me. */
export function MySocialLists({ projectCode }: { projectCode: string }) {
  const { t } = useTranslation("social");
  const memberId = useMemberId();
  const [following, setFollowing] = useState<ListItem[] | null>(null);
  const [followers, setFollowers] = useState<ListItem[] | null>(null);
  const [blocked, setBlocked] = useState<BlockItem[] | null>(null);

  useEffect(() => {
    if (!memberId) return;
    void social.following(memberId).then((b) => isOk(b) && setFollowing(b.info.items));
    void social.followers(memberId).then((b) => isOk(b) && setFollowers(b.info.items));
    void social.blocks().then((b) => isOk(b) && setBlocked(b.info.items));
  }, [memberId]);

  return (
    <section className="card" aria-labelledby="my-social-lists-title">
      <h2 id="my-social-lists-title">{t("lists.title")}</h2>
      <ConnectionsHint projectCode={projectCode} />
      <Tabs.Root defaultValue="following">
        <Tabs.List className="tabs-list" aria-label={t("lists.title")}>
          <Tabs.Trigger className="tab" value="following">
            {t("lists.following")} {following ? `(${following.length})` : ""}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="followers">
            {t("lists.followers")} {followers ? `(${followers.length})` : ""}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="blocked">
            {t("lists.blocked")} {blocked ? `(${blocked.length})` : ""}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="following">
          <People projectCode={projectCode} items={following} empty={t("lists.emptyFollowing")} />
        </Tabs.Content>
        <Tabs.Content value="followers">
          <People
            projectCode={projectCode}
            items={followers}
            empty={t("lists.emptyFollowers")}
            action={(item) => <RemoveFollower item={item} onRemoved={() => setFollowers((list) => list?.filter((f) => f.profile.simpleCode !== item.profile.simpleCode) ?? null)} />}
          />
        </Tabs.Content>
        <Tabs.Content value="blocked">
          {blocked && blocked.length === 0 && <p className="empty-state">{t("lists.emptyBlocked")}</p>}
          <ul className="people">
            {blocked?.map((item) => (
              <BlockedPerson key={item.idBlock} item={item} onUnblocked={() => setBlocked((list) => list?.filter((b) => b.idBlock !== item.idBlock) ?? null)} />
            ))}
          </ul>
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

function People({ projectCode, items, empty, action }: { projectCode: string; items: ListItem[] | null; empty: string; action?: (item: ListItem) => React.ReactNode }) {
  const { t } = useTranslation("social");
  if (!items) return <p className="muted">{t("common:loading")}</p>;
  if (items.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <ul className="people">
      {items.map((item) => (
        <li key={item.profile.simpleCode} className="person">
          <Avatar profile={item.profile} size={44} />
          <Link className="person-name" to={profilePath(projectCode, item.profile.simpleCode)} aria-label={t("lists.openProfile", { name: item.profile.nickname || item.profile.simpleCode })}>
            {item.profile.nickname || item.profile.simpleCode}
          </Link>
          <LocalTime className="person-meta" value={item.dateAdd} />
          {action?.(item)}
        </li>
      ))}
    </ul>
  );
}

/**
 * Soft block (README Decisions "Safety controls"): remove a follower with a two-step confirm; they are not told and
 * may follow again. The row (and the tab's count) goes at once.
 */
function RemoveFollower({ item, onRemoved }: { item: ListItem; onRemoved: () => void }) {
  const { t } = useTranslation("safety");
  const toast = useToast();
  const name = item.profile.nickname || item.profile.simpleCode;
  const remove = useTwoStep(async () => {
    const body = await social.removeFollower(item.profile.simpleCode);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    toast(t("removeFollower.done", { name }), "success");
    onRemoved();
  });
  return (
    <button type="button" className={remove.armed ? "button button-danger" : "button"} onClick={() => void remove.tap()} aria-label={`${remove.armed ? t("removeFollower.confirm") : t("removeFollower.action")}: ${name}`}>
      {remove.armed ? t("removeFollower.confirm") : t("removeFollower.action")}
    </button>
  );
}

/** §4: blocked-by-me avatars are gray; the first tap re-confirms, the second unblocks. */
export function BlockedPerson({ item, onUnblocked }: { item: BlockItem; onUnblocked: () => void }) {
  const { t } = useTranslation("social");
  const toast = useToast();
  const format = useFormat();
  const name = item.profile.nickname || item.profile.simpleCode;
  const unblock = useTwoStep(async () => {
    const body = await social.unblock(item.idBlock);
    if (!isOk(body)) return toast(errorText(t, body), "error");
    toast(t("block.unblocked"), "success");
    onUnblocked();
  });
  return (
    <li className="person">
      <button type="button" className="avatar-button" onClick={() => void unblock.tap()} aria-label={`${unblock.armed ? t("block.confirmUnblock") : t("block.unblock")}: ${name}`}>
        <Avatar profile={item.profile} size={44} grayed />
      </button>
      <span className="person-name">{name}</span>
      <span className="person-meta" suppressHydrationWarning>
        {unblock.armed ? t("block.confirmUnblock") : item.expiresAt ? t("lists.until", { date: format.dateTime(item.expiresAt) }) : t("duration.forever")}
        {/* README Decisions "Block evasion and per-item reports": the blocker sees the choice is on (under the duration, so the name keeps its room). */}
        {item.alsoNewAccounts && (
          <>
            <br />
            {t("reporting:alsoNewAccountsOn")}
          </>
        )}
      </span>
    </li>
  );
}
