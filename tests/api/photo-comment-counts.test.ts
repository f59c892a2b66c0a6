import { env } from "cloudflare:test";
import { md5 } from "js-md5";
import { describe, expect, it } from "vitest";
import type { HomeDashboard } from "../../worker/contract/home";
import { call, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { form, imageBytes, midTone } from "./profiles-helpers";

/**
 * Photo comment counts (README Decisions "Photo comment counts"): a photo's threadCount is the number of comments in
 * its owner's personal chatroom (md5 of the member code, §2) whose line every viewer of the modal sees — not deleted;
 * a private one shows as the §6 placeholder line, so it counts — on each of the owner's photos, for members and visitors alike; kept on post and on delete.
 */

async function photoOf(m: Member) {
  const up = expectOk(await call("POST", `/private/core/files/${m.projectCode}/${m.memberId}`, { as: m, body: form(imageBytes(300, 200, midTone)) }));
  return expectOk(await call("POST", `/private/core/banners/${m.memberId}`, { as: m, body: { image: up.url, pickable: true, width: 300, height: 200 } })) as {
    idBanner: number;
    threadCount: number;
  };
}
const rid = () => crypto.randomUUID().replace(/-/g, "");
const comment = (as: Member, owner: Member, body: Record<string, unknown> = {}) =>
  call("POST", `/private/sns/chatrooms/${md5(owner.memberNo)}/messages/${as.memberId}`, {
    as,
    body: { message: "nice", payload: { type: "text", content: "nice" }, requestId: rid(), isPrivate: false, ...body },
  });
const remove = (as: Member, id: number) => call("DELETE", `/private/sns/chatroom/messages/${as.memberId}/${id}`, { as });

type Card = { idBanner: number; threadCount: number };
/** The owner's photo counts as a member sees them (profile photos and the home dashboard) and as a visitor sees them. */
async function counts(owner: Member, viewer: Member) {
  const memberView = expectOk(await call("GET", `/private/core/banners/users/${owner.memberNo}`, { as: viewer })) as Card[];
  const visitorView = expectOk(await call("GET", `/public/core/banners/users/${owner.memberNo}?project=${owner.projectCode}`)) as Card[];
  const visitorList = (expectOk(await call("GET", `/public/core/banners/${owner.projectCode}?pageSize=200`)) as (Card & { memberNo?: string; profile?: { simpleCode: string } })[])
    .filter((b) => b.profile?.simpleCode === owner.memberNo);
  const dashboard = expectOk(await call("GET", `/private/core/home/${viewer.projectCode}`, { as: viewer })) as HomeDashboard;
  const home = (dashboard.photos ?? []).filter((p) => p.profile?.simpleCode === owner.memberNo);
  return {
    member: [...new Set(memberView.map((b) => b.threadCount))],
    visitor: [...new Set(visitorView.map((b) => b.threadCount))],
    visitorList: [...new Set(visitorList.map((b) => b.threadCount))],
    home: [...new Set(home.map((b) => b.threadCount))],
    photos: memberView.length,
  };
}

describe("photo comment counts", () => {
  it("a comment counts on every photo of the owner for a member and a visitor; deleting it takes it back", async () => {
    const [owner, fan, viewer] = [await signUpPoster(), await signUpPoster(), await signUp()];
    await photoOf(owner);
    await photoOf(owner);
    expect(await counts(owner, viewer)).toMatchObject({ member: [0], visitor: [0], photos: 2 });

    const posted = expectOk(await comment(fan, owner)) as { idChatroomMessage: number };
    const after = await counts(owner, viewer);
    expect(after).toEqual({ member: [1], visitor: [1], visitorList: [1], home: after.home.length ? [1] : [], photos: 2 });

    // A photo added later starts with the room's count.
    expect((await photoOf(owner)).threadCount).toBe(1);

    expectOk(await remove(fan, posted.idChatroomMessage));
    expect(await counts(owner, viewer)).toMatchObject({ member: [0], visitor: [0], photos: 3 });

    // Editing to empty text deletes too (§5), and takes the count back.
    const again = expectOk(await comment(fan, owner)) as { idChatroomMessage: number };
    expect((await counts(owner, viewer)).member).toEqual([1]);
    expectOk(await call("PUT", `/private/sns/chatroom/messages/${fan.memberId}/${again.idChatroomMessage}`, { as: fan, body: { message: "  " } }));
    expect((await counts(owner, viewer)).member).toEqual([0]);
  });

  it("a private comment counts as the placeholder line every viewer's modal shows; thread replies do not", async () => {
    const [owner, fan, viewer] = [await signUpPoster(), await signUpPoster(), await signUp()];
    await photoOf(owner);
    const secret = expectOk(await comment(fan, owner, { message: "for you only", payload: { type: "text", content: "for you only" }, isPrivate: true, toMemberNo: owner.memberNo }));
    expect(await counts(owner, viewer)).toMatchObject({ member: [1], visitor: [1] });
    // What the viewer's modal lists agrees: one line, the placeholder, no text.
    const listed = expectOk(await call("GET", `/private/sns/chatroom/${md5(owner.memberNo)}/messages?pageSize=100`, { as: viewer }));
    const lines = (Array.isArray(listed) ? listed : listed.messages) as { placeholder: boolean; message: string }[];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ placeholder: true });
    expect(JSON.stringify(lines)).not.toContain("for you only");
    expectOk(await remove(fan, secret.idChatroomMessage));
    expect((await counts(owner, viewer)).member).toEqual([0]);
    const open = expectOk(await comment(fan, owner)) as { idChatroomMessage: number };
    expectOk(await call("POST", `/private/sns/chatroom/messages/threads/${owner.memberId}`, { as: owner, body: { idChatroomMessage: open.idChatroomMessage, message: "thanks", isPrivate: false } }));
    expect((await counts(owner, viewer)).member).toEqual([1]);
  });

  it("members who signed up before the mapping existed are found the first time their room gets a comment", async () => {
    const [owner, fan, viewer] = [await signUpPoster(), await signUpPoster(), await signUp()];
    await photoOf(owner);
    await env.DB.prepare("delete from personal_chatrooms where member_id in (?, ?)").bind(owner.memberId, viewer.memberId).run();
    expectOk(await comment(fan, owner));
    expect((await counts(owner, viewer)).member).toEqual([1]);
    const rows = await env.DB.prepare("select chatroom_id as room from personal_chatrooms where member_id in (?, ?) order by member_id = ? desc").bind(owner.memberId, viewer.memberId, owner.memberId).all<{ room: string }>();
    expect(rows.results.map((r) => r.room)).toEqual([md5(owner.memberNo), md5(viewer.memberNo)]);
  });

  it("another tenant's rooms and photos are unaffected", async () => {
    const [foreignOwner, foreignFan] = [await signUpPoster("ABC"), await signUpPoster("ABC")];
    const [fan, viewer] = [await signUpPoster(), await signUp()];
    await photoOf(foreignOwner);
    // The same room id under SMP is not the ABC member's room.
    expectOk(await comment(fan, foreignOwner));
    const foreignViewer = await signUp("ABC");
    expect(await counts(foreignOwner, foreignViewer)).toMatchObject({ member: [0], visitor: [0] });
    // Their own tenant's comment counts once; the SMP message is not in it.
    expectOk(await comment(foreignFan, foreignOwner));
    expect(await counts(foreignOwner, foreignViewer)).toMatchObject({ member: [1], visitor: [1] });
    // And an SMP viewer asking for the ABC member under SMP gets nothing of theirs.
    const smpView = await call("GET", `/private/core/banners/users/${foreignOwner.memberNo}`, { as: viewer });
    if (smpView.status === 200) expect(smpView.body.info).toEqual([]);
  });
});
