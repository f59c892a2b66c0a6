import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { writePresence } from "../../worker/features/chat/presence.service";
import { call, expectOk, signUpPoster, type Member } from "../support/client";

/** Server rules of the member journeys: reply coins once per post (§9), recently active and one's own presence. */
let seq = 0;
const rid = () => `mj-${Date.now().toString(36)}-${++seq}`;
const presence = (m: Member) => call("GET", "/private/sns/presence/SMP?pageSize=30", { as: m });

describe("M coin for replies (§9: 1 per post reply received, once per post)", () => {
  it("pays the author once per post, however many members reply, and again for another post", async () => {
    const [author, a, b] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    const post = async () => expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { as: author, body: { message: "note", requestId: rid() } }));
    const reply = (m: Member, id: number) => call("POST", `/private/sns/chatroom/messages/threads/${m.memberId}`, { as: m, body: { idChatroomMessage: id, message: "reply" } });
    const coins = async () => Number(await env.DB.prepare("select coalesce(sum(amount), 0) as n from coin_ledger where member_id = ? and reason = 'replyReceived'").bind(author.memberId).first("n"));
    const first = await post();
    for (const m of [a, b, a]) expect(expectOk(await reply(m, first.idChatroomMessage))).toMatchObject({ idChatroomMessage: first.idChatroomMessage });
    expect(await coins()).toBe(1);
    const second = await post();
    expectOk(await reply(b, second.idChatroomMessage));
    expect(await coins()).toBe(2);
    const pvs = expectOk(await call("GET", `/private/core/pvs/${author.memberId}`, { as: author }));
    expect(JSON.stringify(pvs)).toMatch(/"mcoin":2\b/);
  });
});

describe("recently active (public-chat side list, latest online)", () => {
  it("never lists a deleted account", async () => {
    const [viewer, gone] = [await signUpPoster(), await signUpPoster()];
    await writePresence(env as unknown as Env, { memberId: gone.memberId, projectCode: "SMP" }, true);
    const idProfile = Number(await env.DB.prepare("select id_profile as n from profiles where member_id = ?").bind(gone.memberId).first("n"));
    const ids = async () => (expectOk(await presence(viewer)) as { profile: { idProfile: number } }[]).map((e) => e.profile.idProfile);
    expect(await ids()).toContain(idProfile);
    expectOk(await call("DELETE", `/private/core/members/${gone.memberId}`, { as: gone, body: { password: gone.password } }));
    expect(await ids()).not.toContain(idProfile);
  });

  it("shows members themselves online, even before their presence socket connected or after a stale offline", async () => {
    const me = await signUpPoster();
    const first = expectOk(await presence(me)) as { profile: { simpleCode: string }; online: boolean }[];
    expect(first[0]).toMatchObject({ profile: { simpleCode: me.memberNo }, online: true });
    await writePresence(env as unknown as Env, { memberId: me.memberId, projectCode: "SMP" }, false, Date.now() - 60_000);
    const again = expectOk(await presence(me)) as { profile: { simpleCode: string }; online: boolean }[];
    expect(again.filter((e) => e.profile.simpleCode === me.memberNo)).toEqual([expect.objectContaining({ online: true })]);
    // Others still see the stored state.
    const other = await signUpPoster();
    const seen = (expectOk(await presence(other)) as { profile: { simpleCode: string }; online: boolean }[]).find((e) => e.profile.simpleCode === me.memberNo);
    expect(seen?.online).toBe(false);
  });
});
