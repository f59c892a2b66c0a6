import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { MAP_TILE_ORIGIN, MAP_TILE_URL, mapZoom, markerSize } from "../../worker/contract/map.constants";
import { createWorkerApp } from "../../worker/worker-app";
import { formatAge } from "../../app/i18n/format";
import { call, expectOk, signUp, type Member } from "../support/client";
import { block, eventually } from "./social-support";

/** The worker with a stand-in page handler: the page security headers wrap it exactly as they wrap React Router's. */
const withPages = createWorkerApp(async (c) => c.html("<!doctype html><title>page</title>"));
async function page(path: string) {
  const ctx = createExecutionContext();
  const response = await withPages.fetch(new Request(`http://velvet.test${path}`), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The sources of one CSP directive. */
function directive(csp: string, name: string): string[] {
  const found = csp.split(";").map((d) => d.trim().split(/\s+/)).find(([n]) => n === name);
  return found ? found.slice(1) : [];
}

/** CSP host-source matching (CSP3 §6.7.2.8, the parts our sources use): scheme, then host, `*.` matching subdomains only. */
function sourceAllows(source: string, url: string): boolean {
  const target = new URL(url);
  const match = source.match(/^(https?):\/\/(\*\.)?([^/:]+)$/);
  if (!match) return false;
  const [, scheme, wildcard, host] = match;
  if (`${scheme}:` !== target.protocol) return false;
  return wildcard ? target.hostname.endsWith(`.${host}`) : target.hostname === host;
}

const tileUrl = MAP_TILE_URL.replace("{z}", "8").replace("{x}", "227").replace("{y}", "100");

describe("map tiles and the page CSP", () => {
  it("allows exactly the host the maps request tiles from, on every page", async () => {
    for (const path of ["/smp/login", "/smp/market", "/smp/share/20000001"]) {
      const response = await page(path);
      expect(response.headers.get("Content-Type"), path).toContain("text/html");
      const csp = response.headers.get("Content-Security-Policy") ?? "";
      const imgSrc = directive(csp, "img-src");
      expect(imgSrc, path).toEqual(["'self'", "data:", "blob:", "https://tile.openstreetmap.org"]);
      // The requested tile is allowed by the tile source, and by nothing broader.
      expect(imgSrc.filter((s) => sourceAllows(s, tileUrl)), path).toEqual(["https://tile.openstreetmap.org"]);
      expect(imgSrc.some((s) => s.includes("*")), path).toBe(false);
      expect(directive(csp, "default-src"), path).toEqual(["'self'"]);
      await response.arrayBuffer();
    }
  });

  it("the tile template's host is the CSP's source; a `*.` source would not have matched it", () => {
    expect(new URL(tileUrl).host).toBe("tile.openstreetmap.org");
    expect(MAP_TILE_ORIGIN).toBe("https://tile.openstreetmap.org");
    expect(sourceAllows(MAP_TILE_ORIGIN, tileUrl)).toBe(true);
    // The old policy: why the maps were blank.
    expect(sourceAllows("https://*.tile.openstreetmap.org", tileUrl)).toBe(false);
    expect(sourceAllows(MAP_TILE_ORIGIN, "https://evil.tile.openstreetmap.org/8/1/1.png")).toBe(false);
    expect(sourceAllows(MAP_TILE_ORIGIN, "http://tile.openstreetmap.org/8/1/1.png")).toBe(false);
  });

  it("keeps API answers at default-src 'none' (no tile source there)", async () => {
    const reply = await call("GET", "/public/nope");
    expect(reply.headers.get("Content-Security-Policy")).not.toContain("openstreetmap");
  });
});

describe("§9 map constants", () => {
  it("zooms 8, then 14 on the member's own position, 12 on a selection, one more every 10 avatar taps", () => {
    expect([mapZoom("initial", 0), mapZoom("own", 0), mapZoom("selection", 0)]).toEqual([8, 14, 12]);
    expect([mapZoom("selection", 9), mapZoom("selection", 10), mapZoom("selection", 19), mapZoom("selection", 20)]).toEqual([12, 13, 13, 14]);
    // Others' cells never deeper than 14 (README "Cells, not positions"); taps deepen the selection only.
    expect(mapZoom("selection", 100)).toBe(14);
    expect([mapZoom("own", 20), mapZoom("initial", 20)]).toEqual([14, 8]);
  });

  it("sizes markers: blocked 0, blurred 10, qualified 30 plus rank/10, else 20", () => {
    expect(markerSize({ blocked: true, qualify: true }, 5)).toBe(0);
    expect(markerSize({ blur: true, qualify: true }, 5)).toBe(10);
    expect(markerSize({ qualify: true }, 5)).toBe(30.5);
    expect(markerSize({ qualify: false }, 5)).toBe(20);
  });
});

describe("short ages for notification rows", () => {
  const now = Date.parse("2026-11-17T15:05:00Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");
  it("read 'now', minutes, hours, days and weeks in each language, one short word each", () => {
    const cases = [ago(20_000), ago(3 * 60_000), ago(2 * 3_600_000), ago(5 * 86_400_000), ago(15 * 86_400_000)];
    expect(cases.map((c) => plain(formatAge("en", c, now)))).toEqual(["now", "3m", "2h", "5d", "2w"]);
    expect(cases.map((c) => plain(formatAge("ja", c, now)))).toEqual(["今", "3 分", "2 時間", "5 日", "2 週間"]);
    expect(cases.map((c) => plain(formatAge("zh-CN", c, now)))).toEqual(["现在", "3分钟", "2小时", "5天", "2周"]);
    expect(cases.map((c) => plain(formatAge("zh-TW", c, now)))).toEqual(["現在", "3 分鐘", "2 小時", "5 天", "2 週"]);
    // A clock a little ahead of the server's is still "now"; nonsense is empty.
    expect(formatAge("en", new Date(now + 30_000).toISOString(), now)).toBe("now");
    expect(formatAge("en", "not a date", now)).toBe("");
  });
});

let seq = 0;
const rid = () => `mn-${Date.now().toString(36)}-${++seq}`;
const send = (from: Member, to: Member, message: string, room = directChatroomId(from.memberNo, to.memberNo)) =>
  call("POST", `/private/sns/chatrooms/${room}/messages/${from.memberId}`, { as: from, body: { requestId: rid(), message, isPrivate: true, toMemberNo: to.memberNo } });
const notices = async (m: Member) => expectOk(await call("GET", "/private/core/notifications?pageSize=50", { as: m })).items as Record<string, any>[];
const of = (items: Record<string, any>[], type: string) => items.filter((n) => n.type === type);

async function withAvatar(m: Member) {
  await env.DB.prepare("update profiles set avator = ?, qualify = 1, nickname = ? where member_id = ?").bind(`/media/SMP/${m.memberNo}/avatar/a.jpg`, `nick${m.memberNo}`, m.memberId).run();
  return m;
}

describe("each notification names what it opens, and only what the viewer may open", () => {
  it("a follow opens the follower's profile; a message request the requests tray; a message its conversation or note", async () => {
    const [me, a] = [await withAvatar(await signUp()), await withAvatar(await signUp())];
    expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: a }));
    // A stranger's first message waits as a request; my answer reaches a as a message in our conversation.
    expectOk(await send(a, me, "hello, may I?"));
    expectOk(await send(me, a, "hello back"));
    // a's private reply to me in the public chat: a note, not the one-to-one room.
    const reply = expectOk(await send(a, me, "psst, only you", PUBLIC_CHATROOM_ID));

    const mine = await eventually(() => notices(me), (items) => of(items, "follow").length > 0 && of(items, "privateMessage").length > 0);
    expect(of(mine, "follow")[0]!.target).toEqual({ kind: "profile", memberNo: a.memberNo });
    expect(of(mine, "messageRequest")[0]!.target).toEqual({ kind: "requests" });
    const note = of(mine, "privateMessage")[0]!;
    expect(note.target).toEqual({ kind: "note", idChatroomMessage: reply.idChatroomMessage });
    // The ids needed travel in `target`; the stored extras (room, message id, a nickname at the time) stay on the server.
    expect(note.params).toEqual({});
    expect(JSON.stringify(note)).not.toContain(`"nickname":"nick${a.memberNo}","chatroomId"`);

    const theirs = await eventually(() => notices(a), (items) => of(items, "privateMessage").length > 0);
    expect(of(theirs, "privateMessage")[0]).toMatchObject({ target: { kind: "conversation", chatroomId: directChatroomId(me.memberNo, a.memberNo) }, params: {} });
  });

  it("a submitted mission opens its review for the reviewer, a reviewed one the mission for its owner", async () => {
    const [creator, taker] = [await signUp(), await signUp()];
    const task = expectOk(await call("POST", "/private/sns/tasks", { as: creator, body: { subject: "Dawn", description: "Kneel for ten minutes at dawn, then write down in detail what you felt." } }));
    const { idMission: id } = expectOk(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: taker }));
    expectOk(await call("PUT", "/private/sns/missions", { as: taker, body: { id, description: "I knelt." } }));
    expectOk(await call("POST", "/private/sns/missions/submit", { as: taker, body: { id } }));
    const submitted = await eventually(() => notices(creator), (items) => of(items, "missionSubmitted").length > 0);
    expect(of(submitted, "missionSubmitted")[0]).toMatchObject({ target: { kind: "review", idMission: id }, params: { subject: "Dawn" } });
    expectOk(await call("POST", "/private/sns/missions/confirm", { as: creator, body: { id, remark: "Well done." } }));
    const reviewed = await eventually(() => notices(taker), (items) => of(items, "missionReviewed").length > 0);
    expect(of(reviewed, "missionReviewed")[0]).toMatchObject({ target: { kind: "mission", idMission: id }, params: { subject: "Dawn" } });
  });

  it("links nothing that belongs to another tenant or someone else, and drops a blocked member's notices", async () => {
    const [me, a, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    const [foreignPeer] = [await signUp("ABC")];
    // Another tenant's private message and mission, named in rows written to me (as a bug or a forged row would).
    expectOk(await send(foreign, foreignPeer, "abc only"));
    expectOk(await send(foreignPeer, foreign, "abc reply"));
    const foreignMessage = await env.DB.prepare("select id_chatroom_message as id from chat_messages where member_id = ? order by id_chatroom_message desc").bind(foreignPeer.memberId).first<{ id: number }>();
    const task = expectOk(await call("POST", "/private/sns/tasks", { as: a, body: { subject: "Not yours", description: "Kneel for ten minutes at dawn, then write down in detail what you felt." } }));
    const other = await signUp();
    const { idMission } = expectOk(await call("POST", `/private/sns/tasks/${task.idTask}/take-up`, { as: other }));
    // And a message of my own tenant written to someone else.
    const elsewhere = expectOk(await send(a, other, "not for you"));
    const insert = env.DB.prepare("insert into notifications (project_code, member_id, type, actor_member_id, params, created_at) values ('SMP', ?, ?, ?, ?, ?)");
    await env.DB.batch([
      insert.bind(me.memberId, "privateMessage", null, JSON.stringify({ idChatroomMessage: elsewhere.idChatroomMessage }), Date.now()),
      insert.bind(me.memberId, "privateMessage", null, JSON.stringify({ idChatroomMessage: foreignMessage!.id, chatroomId: "dm-1-2" }), Date.now()),
      insert.bind(me.memberId, "missionSubmitted", null, JSON.stringify({ idMission }), Date.now()),
      insert.bind(me.memberId, "missionReviewed", null, JSON.stringify({ idMission }), Date.now()),
      insert.bind(me.memberId, "follow", foreign.memberId, "{}", Date.now()),
    ]);
    const items = await notices(me);
    expect(items.map((n) => [n.type, n.target])).toEqual([
      ["follow", null],
      ["missionReviewed", null],
      ["missionSubmitted", null],
      ["privateMessage", null],
      ["privateMessage", null],
    ]);

    // A member's notices vanish once either side blocks (visibility.ts), targets with them.
    expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: a }));
    await eventually(() => notices(me), (list) => list.some((n) => n.actorMemberNo === a.memberNo));
    await block(me, a);
    expect(JSON.stringify(await notices(me))).not.toContain(a.memberNo);
  });
});
