import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { call, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { dressUp, pngBytes } from "../support/route-matrix";
import { giveAvatar } from "./profiles-helpers";
import { block } from "./social-support";

/**
 * §4 Closed profile (README Decisions "Closed profiles and what a visitor sees", worker/features/members/profile-access.ts):
 * planted content of a closed member never reaches a visitor, a member the owner has not let in, or another tenant,
 * on any route that serves one member by number; the owner, an accepted friend and a member the owner follows get it.
 * Checked on the raw response text, not only on parsed fields.
 */

type Viewer = Member | null;
let owner: Member;
let friend: Member;
let followed: Member;
let follower: Member; // follows the owner: following is not being let in
let stranger: Member;
let foreign: Member;
let blocked: Member;
let needles: string[];
let avatar: { original: string; rendition: string };

/** Raw text of an API GET as `as` (null: a visitor). */
async function raw(path: string, as: Viewer) {
  const response = await fetchWorker(`/api/v7/${as ? "private" : "public"}${path}`, { headers: as?.headers ?? {} });
  return { status: response.status, text: await response.text() };
}

/** Every route that serves one member's content by number (the profile, page, photos, albums, footprints, activity, preferences, sub-members, chat messages). */
const routesFor = (code: string, project = "SMP", as: Viewer = null) => [
  `/core/profiles/${project}/member/${code}`,
  `/core/profiles/${project}/page/${code}`,
  `/core/banners/users/${code}${as ? "" : `?project=${project}`}`,
  as ? `/sns/member-albums/${code}` : `/sns/member-albums/${project}/${code}`,
  `/sns/visitors/${project}/code/${code}`,
  `/sns/actions/${project}/${code}`,
  `/sns/characters/${project}?memberNo=${code}`,
  `/sns/sub-members/${project}/${code}`,
  `/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20&memberNo=${code}${as ? "" : `&project=${project}`}`,
  ...(as ? [`/sns/hierarchy/${project}/${code}`, `/sns/hierarchy/${project}/${code}/history`] : []),
];

beforeAll(async () => {
  const made = await Promise.all(Array.from({ length: 6 }, async () => dressUp(await signUp("SMP"))));
  [owner, friend, followed, follower, stranger, blocked] = made as [Member, Member, Member, Member, Member, Member];
  foreign = await dressUp(await signUp("OTH"));
  const tag = owner.memberNo;
  await giveAvatar(owner);
  const intro = `closed-intro-${tag} a long enough introduction for every list`;
  expectOk(
    await call("PATCH", `/private/core/profiles/${owner.memberId}`, {
      as: owner,
      body: { nickname: `Closed ${tag}`, introduction: intro, birthday: "1990-08-01", skypeId: `skype-${tag}`, telegramId: `tg-${tag}`, websiteUrl: `https://site-${tag}.example`, phone: `+1-555-${tag}`, safeword: `mango-${tag}` },
    }),
  );
  // A photo, an album, a preference, a chat message, a footprint and a sub-member: content of the owner's.
  const photo = new FormData();
  photo.set("file", new File([pngBytes() as BlobPart], "photo.png", { type: "image/png" }));
  photo.set("type", "photo");
  const upload = expectOk(await call("POST", `/private/core/files/SMP/${owner.memberId}`, { as: owner, body: photo }));
  expectOk(await call("POST", `/private/core/banners/${owner.memberId}`, { as: owner, body: { image: upload.url, pickable: true, width: upload.width, height: upload.height } }));
  const bannerRow = await env.DB.prepare("select image, blur_image as blurImage from banners where member_id = ?").bind(owner.memberId).first<{ image: string; blurImage: string }>();
  expectOk(await call("POST", "/private/sns/albums", { as: owner, body: { title: `album-${tag}` } }));
  expectOk(await call("POST", `/private/sns/characters/${owner.memberId}`, { as: owner, body: { idCharacter: 1 } }));
  expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${owner.memberId}`, { as: owner, body: { message: `chat-${tag}`, requestId: `closed-${tag}` } }));
  // A member with a nickname visits (a footprint), before the profile closes.
  // No avatar: not in the tenant's lists, so their nickname shows only where footprints do.
  const visitorOf = await signUp("SMP");
  await env.DB.prepare("update profiles set nickname = ? where member_id = ?").bind(`Footprint ${tag}`, visitorOf.memberId).run();
  expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: visitorOf }));
  // Let in: an accepted friend and a member the owner follows. Not let in: a follower of the owner, anyone else.
  expectOk(await call("POST", "/private/core/friends/request", { as: owner, body: { targetMemberNo: friend.memberNo } }));
  expectOk(await call("POST", "/private/core/friends/accept", { as: friend, body: { targetMemberNo: owner.memberNo } }));
  expectOk(await call("POST", `/private/core/follows/${followed.memberNo}`, { as: owner }));
  expectOk(await call("POST", `/private/core/follows/${owner.memberNo}`, { as: follower }));
  await block(owner, blocked);
  expectOk(await call("PATCH", `/private/core/profiles/${owner.memberId}`, { as: owner, body: { closed: true } }));

  const row = await env.DB.prepare("select avator, avator_blur as avatorBlur from profiles where member_id = ?").bind(owner.memberId).first<{ avator: string; avatorBlur: string }>();
  avatar = { original: row!.avator, rendition: row!.avatorBlur };
  expect(avatar.original).not.toBe("");
  needles = [intro.slice(0, 20), `skype-${tag}`, `tg-${tag}`, `site-${tag}`, `+1-555-${tag}`, `mango-${tag}`, "1990-08-01", bannerRow!.image, bannerRow!.blurImage, `album-${tag}`, `chat-${tag}`, `Footprint ${tag}`, '"checked":true'];
});

const leaks = (text: string) => needles.filter((needle) => text.includes(needle));

describe("a closed profile is a stub for everyone the owner has not let in", () => {
  it("gives a visitor the stub on the profile and page, and nothing of the owner on any route", async () => {
    for (const path of routesFor(owner.memberNo)) {
      const reply = await raw(path, null);
      expect(reply.status, path).toBe(200);
      expect(leaks(reply.text), path).toEqual([]);
    }
    const stub = expectOk(await call("GET", `/public/core/profiles/SMP/member/${owner.memberNo}`));
    // Nickname, the avatar rendition (never the original), closed: nothing else of the profile.
    expect(stub).toEqual({ simpleCode: owner.memberNo, nickname: `Closed ${owner.memberNo}`, avator: avatar.rendition, blur: true, closed: true, stub: true, relationship: null });
    const page = expectOk(await call("GET", `/public/core/profiles/SMP/page/${owner.memberNo}`));
    expect(page.profile).toEqual(stub);
    expect(page).toMatchObject({ characters: [], actions: [], footprints: [], banners: [] });
    expect((await raw(`/core/profiles/SMP/page/${owner.memberNo}`, null)).text).not.toContain(avatar.original);
  });

  it("gives a member the owner has not let in (a follower of the owner, a stranger) the stub too", async () => {
    for (const viewer of [follower, stranger]) {
      for (const path of routesFor(owner.memberNo, "SMP", viewer)) {
        const reply = await raw(path, viewer);
        expect(reply.status, path).toBe(200);
        expect(leaks(reply.text), path).toEqual([]);
      }
      const stub = expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: viewer }));
      expect(Object.keys(stub).sort()).toEqual(["avator", "blur", "closed", "nickname", "relationship", "simpleCode", "stub"]);
      expect(stub.relationship.following).toBe(viewer === follower);
      // By account id (GET /core/profiles/{memberId}) too.
      const byId = await raw(`/core/profiles/${owner.memberId}`, viewer);
      expect(leaks(byId.text)).toEqual([]);
      expect(JSON.parse(byId.text).info.stub).toBe(true);
    }
  });

  it("keeps a closed member out of a preference's member list and answers no activity by number, to those it is closed to", async () => {
    const holders = async (viewer: Viewer) => (await raw("/sns/characters/SMP/1/users?pageSize=50", viewer)).text;
    for (const viewer of [null, follower, stranger]) expect(await holders(viewer)).not.toContain(`"${owner.memberNo}"`);
    for (const viewer of [owner, friend, followed]) expect(await holders(viewer)).toContain(`"${owner.memberNo}"`);
    const activity = async (viewer: Member) => expectOk(await call("GET", `/private/core/actions/${owner.memberNo}`, { as: viewer }));
    for (const viewer of [follower, stranger]) expect(await activity(viewer)).toMatchObject({ recent: [] });
    // The owner's follow of `followed` is a public action for those let in.
    expect((await activity(friend)).recent.length).toBeGreaterThan(0);
  });

  it("is not found for another tenant and for a blocked pair either way, as before", async () => {

    for (const path of routesFor(owner.memberNo, "SMP", foreign).filter((p) => !p.includes("chatroom"))) {
      const reply = await raw(path, foreign);
      expect([403, 404], path).toContain(reply.status);
      expect(leaks(reply.text), path).toEqual([]);
    }
    for (const path of routesFor(owner.memberNo, "OTH")) expect(leaks((await raw(path, null)).text), path).toEqual([]);
    for (const path of [`/core/profiles/SMP/member/${owner.memberNo}`, `/core/profiles/SMP/page/${owner.memberNo}`, `/core/banners/users/${owner.memberNo}`, `/sns/member-albums/${owner.memberNo}`]) {
      const reply = await raw(path, blocked);
      expect(reply.status, path).toBe(404);
      expect(leaks(reply.text), path).toEqual([]);
    }
  });

  it("opens in full to the owner, an accepted friend and a member the owner follows", async () => {
    for (const viewer of [owner, friend, followed]) {
      const page = expectOk(await call("GET", `/private/core/profiles/SMP/page/${owner.memberNo}`, { as: viewer }));
      expect(page.profile.stub, viewer.memberNo).toBeUndefined();
      expect(page.profile.introduction).toContain(`closed-intro-${owner.memberNo}`);
      expect(page.profile.skypeId).toBe(`skype-${owner.memberNo}`);
      expect(page.banners).toHaveLength(1);
      expect(page.characters.some((c: { checked: boolean }) => c.checked)).toBe(true);
      expect(page.footprints.length).toBeGreaterThan(0);
      expect(expectOk(await call("GET", `/private/core/banners/users/${owner.memberNo}`, { as: viewer }))).toHaveLength(1);
      expect(expectOk(await call("GET", `/private/sns/member-albums/${owner.memberNo}`, { as: viewer }))).toHaveLength(1);
      const messages = await raw(`/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20&memberNo=${owner.memberNo}`, viewer);
      expect(messages.text).toContain(`chat-${owner.memberNo}`);
      // Private fields stay the owner's alone, closed or not.
      if (viewer !== owner) expect(JSON.stringify(page)).not.toContain(`mango-${owner.memberNo}`);
    }
  });

  it("closes again for an ex-friend and an unfollowed member at once", async () => {
    const exFriend = await dressUp(await signUp("SMP"));
    expectOk(await call("POST", "/private/core/friends/request", { as: exFriend, body: { targetMemberNo: owner.memberNo } }));
    expectOk(await call("POST", "/private/core/friends/accept", { as: owner, body: { targetMemberNo: exFriend.memberNo } }));
    expect(expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: exFriend })).stub).toBeUndefined();
    expectOk(await call("DELETE", `/private/core/friends/${exFriend.memberNo}`, { as: owner }));
    expect(expectOk(await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: exFriend })).stub).toBe(true);
    expectOk(await call("DELETE", `/private/core/follows/${followed.memberNo}`, { as: owner }));
    expect(leaks((await raw(`/core/profiles/SMP/page/${owner.memberNo}`, followed)).text)).toEqual([]);
    expectOk(await call("POST", `/private/core/follows/${followed.memberNo}`, { as: owner }));
  });

  it("reveals a closed member's photo by id only to those it opens to", async () => {
    const idBanner = (await env.DB.prepare("select id_banner as id from banners where member_id = ?").bind(owner.memberId).first<{ id: number }>())!.id;
    for (const viewer of [stranger, follower]) {
      const reply = await call("POST", `/private/core/banners/${idBanner}/reveal`, { as: viewer });
      expect(reply.status).toBe(404);
      expect(leaks(JSON.stringify(reply.body))).toEqual([]);
    }
    expect(expectOk(await call("POST", `/private/core/banners/${idBanner}/reveal`, { as: friend })).image).toBe(needles[7]);
  });

  it("keeps a closed member's photos off the tenant's photo grids", async () => {
    for (const path of ["/core/banners/SMP", "/core/profiles/SMP/feed"]) {
      expect(leaks((await raw(path, null)).text), path).toEqual([]);
      expect(leaks((await raw(path, friend)).text), path).toEqual([]);
    }
  });

  it("keeps a closed member's introduction off home's hot discussion and market cards", async () => {
    const home = await raw(`/core/home/SMP`, stranger);
    expect(home.status).toBe(200);
    expect(leaks(home.text)).toEqual([]);
    const market = await raw(`/sns/sub-members/SMP/${owner.memberNo}`, friend);
    expect(market.text).not.toContain(`closed-intro-${owner.memberNo}`);
  });
});

describe("what a visitor sees of an open profile (SECURITY.md)", () => {
  it("no footprints, birthday, page views or exact last access; members get no birthday either", async () => {
    const host = await dressUp(await signUp("SMP"));
    const guest = await signUp("SMP");
    await env.DB.prepare("update profiles set nickname = ? where member_id = ?").bind(`Guest ${guest.memberNo}`, guest.memberId).run();
    expectOk(await call("PATCH", `/private/core/profiles/${host.memberId}`, { as: host, body: { birthday: "1991-03-04" } }));
    await env.DB.prepare("update profiles set last_access = ? where member_id = ?").bind(Date.UTC(2026, 0, 2, 13, 14, 15, 167), host.memberId).run();
    expectOk(await call("GET", `/private/core/profiles/SMP/member/${host.memberNo}`, { as: guest }));

    const page = await raw(`/core/profiles/SMP/page/${host.memberNo}`, null);
    const info = JSON.parse(page.text).info;
    expect(info.footprints).toEqual([]);
    expect(page.text).not.toContain(`Guest ${guest.memberNo}`);
    expect(info.profile.pageViews).toBeNull();
    expect(info.profile.birthday).toBeNull();
    expect(info.profile.zodiacSign).toBe("pisces");
    expect(page.text).not.toContain("1991-03-04");
    expect(info.profile.lastAccess).toBe("2026-01-02T00:00:00.000Z");
    expect(page.text).not.toContain("13:14");
    expect(expectOk(await call("GET", `/public/sns/visitors/SMP/code/${host.memberNo}`))).toEqual([]);
    expect(expectOk(await call("GET", `/public/core/profiles/SMP/birthday`))).toEqual([]);
    expect(JSON.parse((await raw(`/core/profiles/SMP/feed`, null)).text).info.birthdays).toEqual([]);

    // A member: footprints and page views, but the sign only; the owner: the date.
    const asMember = expectOk(await call("GET", `/private/core/profiles/SMP/page/${host.memberNo}`, { as: guest }));
    expect(asMember.footprints.map((f: { simpleCode: string }) => f.simpleCode)).toContain(guest.memberNo);
    expect(typeof asMember.profile.pageViews).toBe("number");
    expect(asMember.profile.birthday).toBeNull();
    expect(JSON.stringify(asMember)).not.toContain("1991-03-04");
    expect(expectOk(await call("GET", `/private/core/profiles/${host.memberId}`, { as: host })).birthday).toBe("1991-03-04");
  });
});
