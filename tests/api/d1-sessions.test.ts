import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../worker/db/client";
import { BOOKMARK_COOKIE, inD1Session, isBookmark, routedBinding, sessionEnv, sessionStart } from "../../worker/db/d1-session";
import { deferredWritesPending, deferWrites, flushDeferredWrites, settleDeferredWrites } from "../../worker/db/deferred-writes";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { call, expectOk, fetchWorker, signUp, signUpPoster, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";
import { giveAvatar } from "./profiles-helpers";

// README Decisions "D1 read replicas through sessions": every request runs through one D1 session; reads need no
// primary round trip, writes hand back the bookmark the member's next reads go through.

const primaryTrips = (r: { headers: Headers }) => Number(r.headers.get("X-D1-Primary-Queries"));
const trips = (r: { headers: Headers }) => Number(r.headers.get("X-D1-Queries"));
const visits = async (host: Member) =>
  (await env.DB.prepare("select count(*) as n, coalesce(sum(visit_count), 0) as c from visitors where member_id = ?").bind(host.memberId).first<{ n: number; c: number }>())!;
const pageViews = async (host: Member) => (await env.DB.prepare("select page_views as v from profiles where member_id = ?").bind(host.memberId).first<{ v: number }>())!.v;
/** Bookmarks are commit positions in fixed-width hex groups: later commits compare greater. */
const notOlder = (a: string, b: string) => a >= b;

describe("every request reads and writes through a D1 session", () => {
  it("serves read pages and lists with no primary round trip, and says so", async () => {
    const host = await signUp();
    const viewer = await signUp();
    await giveAvatar(host);
    const reads = [
      await call("GET", `/private/core/profiles/SMP/page/${host.memberNo}`, { as: viewer }),
      await call("GET", `/public/core/profiles/SMP/page/${host.memberNo}`),
      await call("GET", `/private/core/profiles/${host.memberId}`, { as: viewer }),
      await call("GET", `/public/core/profiles/SMP/hot?pageSize=20`),
      await call("GET", `/private/core/home/SMP`, { as: viewer }),
      await call("GET", `/private/sns/search/popular-keyword/SMP?pageSize=10`, { as: viewer }),
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(trips(read)).toBeGreaterThan(0);
      expect(primaryTrips(read)).toBe(0);
      expect(isBookmark(read.headers.get("x-d1-bookmark"))).toBe(true);
      // A read never moves the browser's bookmark: only writes set the cookie.
      expect(read.headers.get("Set-Cookie") ?? "").not.toContain(BOOKMARK_COOKIE);
    }
    await settleDeferredWrites();
  });

  it("answers a write with its bookmark in the header and the cookie; the next read through it sees the write", async () => {
    const m = await signUp();
    const write = await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body: { nickname: "Bookmarked" } });
    expectOk(write);
    expect(primaryTrips(write)).toBeGreaterThanOrEqual(1);
    const bookmark = write.headers.get("x-d1-bookmark");
    expect(isBookmark(bookmark)).toBe(true);
    const cookie = write.headers.get("Set-Cookie") ?? "";
    expect(cookie).toContain(`${BOOKMARK_COOKIE}=${bookmark}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    // Through the header (API clients) and through the cookie (page loads).
    const viaHeader = await call("GET", `/private/core/profiles/${m.memberId}`, { as: m, headers: { "x-d1-bookmark": bookmark! } });
    expect(expectOk(viaHeader).nickname).toBe("Bookmarked");
    expect(notOlder(viaHeader.headers.get("x-d1-bookmark")!, bookmark!)).toBe(true);
    const viaCookie = await call("GET", `/private/core/profiles/${m.memberId}`, { as: m, headers: { Cookie: `${BOOKMARK_COOKIE}=${bookmark}` } });
    expect(expectOk(viaCookie).nickname).toBe("Bookmarked");
    expect(notOlder(viaCookie.headers.get("x-d1-bookmark")!, bookmark!)).toBe(true);
  });

  it("ignores a bookmark that is not one (no 500, starts unconstrained)", async () => {
    for (const bad of ["garbage", "'; drop table members; --", "x".repeat(500)]) {
      const r = await call("GET", `/public/core/profiles/SMP/hot?pageSize=5`, { headers: { "x-d1-bookmark": bad } });
      expect(r.status).toBe(200);
      expect(primaryTrips(r)).toBe(0);
    }
    expect(sessionStart("GET", "garbage")).toBe("first-unconstrained");
    expect(sessionStart("POST", null)).toBe("first-primary");
    expect(sessionStart("GET", "00000000-0000001f-00000000-00000000000000000000000000000000")).toBe("00000000-0000001f-00000000-00000000000000000000000000000000");
  });

  it("keeps one drizzle client for every session, and leaves D1's statement prototype untouched (the guard is per request)", async () => {
    const routed = routedBinding(env.DB);
    expect(routedBinding(env.DB)).toBe(routed);
    expect(routedBinding(routed)).toBe(routed);
    expect(getDb(sessionEnv(env))).toBe(getDb(sessionEnv(env)));
    // The session guard lives in the request's frame (session-guard.ts): no method of D1's statements is replaced.
    const plain = Object.getPrototypeOf(env.DB.prepare("select 1")) as Record<string, unknown>;
    for (const method of ["first", "all", "run", "raw"]) expect(Object.hasOwn(env.DB.prepare("select 1"), method)).toBe(false);
    expect(String(plain.first)).not.toContain("guard");
    // Inside a session the routed binding prepares on it, and the session's bookmark moves with what it ran.
    const { result, bookmark } = await inD1Session(env.DB, "first-unconstrained", () => routed.prepare("select 7 as n").first<{ n: number }>());
    expect(result?.n).toBe(7);
    expect(isBookmark(bookmark)).toBe(true);
  });
});

describe("writes a read causes leave its path", () => {
  it("records a member's profile view after the response, once, and a visitor's page view", async () => {
    const host = await signUp();
    const viewer = await signUp();
    await giveAvatar(host);
    expectOk(await call("PATCH", `/private/core/profiles/${viewer.memberId}`, { as: viewer, body: { nickname: "Far Viewer" } }));
    await settleDeferredWrites();
    const before = await pageViews(host);

    const seen = await call("GET", `/private/core/profiles/SMP/page/${host.memberNo}`, { as: viewer });
    expectOk(seen);
    expect(primaryTrips(seen)).toBe(0);
    await settleDeferredWrites();
    expect(await visits(host)).toEqual({ n: 1, c: 1 });
    expect(await pageViews(host)).toBe(before + 1);
    // The next read shows the footprint.
    const footprints = expectOk(await call("GET", `/private/sns/visitors/${host.memberId}`, { as: host }));
    expect(footprints[0].simpleCode).toBe(viewer.memberNo);

    expectOk(await call("GET", `/public/core/profiles/SMP/page/${host.memberNo}`));
    await settleDeferredWrites();
    expect(await pageViews(host)).toBe(before + 2);
    expect((await visits(host)).n).toBe(1);
  });

  it("writes nothing for a view that was refused (blocked) or one's own", async () => {
    const host = await signUp();
    const blocked = await signUp();
    await giveAvatar(host);
    await env.DB.prepare("insert into blocks (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)").bind("SMP", host.memberId, blocked.memberId, Date.now()).run();
    const before = await pageViews(host);
    expect((await call("GET", `/private/core/profiles/SMP/page/${host.memberNo}`, { as: blocked })).status).toBe(404);
    expectOk(await call("GET", `/private/core/profiles/SMP/page/${host.memberNo}`, { as: host }));
    await settleDeferredWrites();
    expect(await pageViews(host)).toBe(before);
    expect((await visits(host)).n).toBe(0);
  });

  it("counts a page's deferred writes in no response's primary round trips", async () => {
    const host = await signUp();
    const viewer = await signUp();
    await giveAvatar(host);
    const res = await fetchWorker(`/api/v7/private/core/profiles/SMP/page/${host.memberNo}`, { headers: viewer.headers });
    await res.arrayBuffer();
    expect(res.headers.get("X-D1-Primary-Queries")).toBe("0");
    // The visit is still on its way when the response is out; settling waits for it.
    expect(deferredWritesPending()).toBeGreaterThan(0);
    await settleDeferredWrites();
    expect(deferredWritesPending()).toBe(0);
    expect((await visits(host)).n).toBe(1);
  });
  it("keeps one deferred write in flight: what is queued meanwhile waits and goes in one next batch", async () => {
    const host = await signUp();
    await settleDeferredWrites();
    const before = await pageViews(host);
    const view = { toSQL: () => ({ sql: "update profiles set page_views = page_views + 1 where member_id = ?", params: [host.memberId] }) };
    deferWrites(env, [view]);
    const first = flushDeferredWrites();
    deferWrites(env, [view]);
    const second = flushDeferredWrites();
    deferWrites(env, [view]);
    // Every response flushes; the third rides on the second's batch instead of starting its own transaction.
    expect(flushDeferredWrites()).toBe(second);
    expect(second).not.toBe(first);
    await second;
    expect(await pageViews(host)).toBe(before + 3);
    expect(deferredWritesPending()).toBe(0);
  });
});

describe("socket writes hand back their bookmark", () => {
  it("acks a message sent over the chat socket with the write's bookmark; a read through it finds the message", async () => {
    const member = await signUpPoster();
    const socket = (await openSocket(member, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`)) as TestSocket;
    try {
      await socket.next((e) => e.type === "welcome");
      const requestId = `rid-${Date.now().toString(36)}`;
      socket.socket.send(JSON.stringify({ type: "chat.send", body: { message: "read me back", requestId } }));
      const ack = await socket.next((e) => e.type === "chat.ack" && e.requestId === requestId);
      expect(isBookmark(ack.bookmark)).toBe(true);
      const list = await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20`, { as: member, headers: { "x-d1-bookmark": ack.bookmark } });
      expect(JSON.stringify(expectOk(list))).toContain("read me back");
      expect(notOlder(list.headers.get("x-d1-bookmark")!, ack.bookmark)).toBe(true);
    } finally {
      socket.close();
    }
  });
});
