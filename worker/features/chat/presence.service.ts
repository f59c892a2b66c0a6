// Presence (§6 presence audience): who may see a member online, the write-through to D1 and the recently active list.
import { sql } from "drizzle-orm";
import type { PresenceEntry } from "../../contract/chat";
import { getDb } from "../../db/client";
import { iso, HOUR } from "../../lib/time";
import { profileSummaries, viewerFor } from "../members/profile-summary";
import { blockedWith, notBlockedWith } from "../members/visibility";
import { contactSettings } from "./contact-settings";
import { getServerByName } from "partyserver";
import { roomName } from "../../lib/room-names";

/** "Recently active" for the public-chat side list and latest online: seen within a day. */
export const RECENT_WINDOW = 24 * HOUR;

/** Who may see a member online (§6 presence audience), precomputed once per connection. */
export type PresenceRules = { readonly audience: "everyone" | "followers" | "friends" | "nobody"; readonly allowed: readonly string[] | null; readonly blocked: readonly string[] };

export async function presenceRules(env: Env, memberId: string): Promise<PresenceRules> {
  const db = getDb(env);
  const at = Date.now();
  const { presenceAudience: audience } = await contactSettings(env, memberId);
  const blocked = (await blockedWith(db, memberId, at).limit(2000)).map((r) => r.memberId);
  let allowed: string[] | null = null;
  if (audience === "nobody") allowed = [];
  if (audience === "followers") {
    allowed = (await db.all<{ id: string }>(sql`select member_id as id from follows where target_member_id = ${memberId} limit 5000`)).map((r) => r.id);
  }
  if (audience === "friends") {
    allowed = (
      await db.all<{ id: string }>(sql`select case when requester_id = ${memberId} then addressee_id else requester_id end as id from friendships
        where status = 'accepted' and (requester_id = ${memberId} or addressee_id = ${memberId}) limit 5000`)
    ).map((r) => r.id);
  }
  return { audience, allowed, blocked };
}

export const presenceVisibleTo = (rules: PresenceRules, viewerId: string, ownerId: string) =>
  viewerId === ownerId || ((rules.allowed === null || rules.allowed.includes(viewerId)) && !rules.blocked.includes(viewerId));

/** Presence is written through to D1 so latest-online survives any eviction of the Presence object. */
export async function writePresence(env: Env, member: { memberId: string; projectCode: string }, online: boolean, at = Date.now()) {
  await getDb(env).run(sql`insert into chat_presence (member_id, project_code, online, last_seen_at) values (${member.memberId}, ${member.projectCode}, ${online ? 1 : 0}, ${at})
    on conflict (member_id) do update set online = ${online ? 1 : 0}, last_seen_at = ${at}`);
}

/**
 * Recently active members the viewer may see online: online first, then most recently seen. Deleted accounts are
 * never listed (their presence row outlives them). The viewer is asking, so they are here: their own entry is
 * online, and listed even before their presence socket has connected.
 */
export async function listPresence(env: Env, projectCode: string, viewerId: string, pageSize: number): Promise<PresenceEntry[]> {
  const at = Date.now();
  const found = await getDb(env).all<{ memberId: string; online: number; lastSeenAt: number }>(sql`
    select p.member_id as memberId, p.online as online, p.last_seen_at as lastSeenAt
    from chat_presence p join members m on m.id = p.member_id and m.status <> 'deleted'
      left join chat_contact_settings s on s.member_id = p.member_id
    where p.project_code = ${projectCode} and p.last_seen_at > ${at - RECENT_WINDOW}
      and (p.member_id = ${viewerId} or coalesce(s.presence_audience, 'everyone') = 'everyone'
        or (s.presence_audience = 'followers' and exists (select 1 from follows f where f.member_id = ${viewerId} and f.target_member_id = p.member_id))
        or (s.presence_audience = 'friends' and exists (select 1 from friendships fr where fr.status = 'accepted'
          and ((fr.requester_id = ${viewerId} and fr.addressee_id = p.member_id) or (fr.requester_id = p.member_id and fr.addressee_id = ${viewerId})))))
      and ${notBlockedWith(viewerId, sql`p.member_id`, at)}
    order by p.online desc, p.last_seen_at desc limit ${pageSize}`);
  const self = { memberId: viewerId, online: 1, lastSeenAt: at };
  const rows = [self, ...found.filter((r) => r.memberId !== viewerId)].slice(0, pageSize);
  const summaries = await profileSummaries(env, projectCode, rows.map((r) => r.memberId), await viewerFor(env, viewerId));
  return rows.flatMap((r) => {
    const profile = summaries.get(r.memberId);
    return profile ? [{ profile, online: Boolean(r.online), lastSeen: iso(r.lastSeenAt)! }] : [];
  });
}

/**
 * Tells the tenant's Presence room that who may see these members changed (their audience setting, a block either
 * way), so those who may no longer see them are told they went offline at once. Best effort: a failure is logged.
 */
export async function refreshPresence(env: Env, projectCode: string, memberIds: readonly string[]) {
  try {
    const presence = await getServerByName(env.Presence, roomName(projectCode, "presence"));
    for (const memberId of memberIds) await presence.rulesChanged(memberId);
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", message: "presence refresh failed", error: String(error) }));
  }
}
