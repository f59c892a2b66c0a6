import { env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { socketHeaders } from "../support/socket";
import { dressUp, pngBytes } from "../support/route-matrix";

/**
 * Load and faults, run by `npm run soak` (not part of `npm test`):
 *  1. SOAK_SOCKETS sockets across SOAK_ROOMS chatrooms plus steady API traffic for SOAK_SECONDS: zero errors,
 *     zero lost and zero duplicated messages;
 *  2. a room evicted mid-conversation (sockets closed) resumes: clients reconnect with `since` and miss nothing;
 *     a room evicted gracefully (sockets hibernated) keeps delivering;
 *  3. a reconnect storm (every client at once) settles, and the next message reaches everyone once;
 *  4. a failed D1 batch leaves no half-done change; a retried requestId or award does not double.
 * Prints the figures as one JSON line ("soak figures").
 */
const SOCKETS = Number((env as unknown as Record<string, string>).SOAK_SOCKETS ?? 1000);
const ROOMS = Number((env as unknown as Record<string, string>).SOAK_ROOMS ?? 10);
const SECONDS = Number((env as unknown as Record<string, string>).SOAK_SECONDS ?? 60);
const PER_ROOM = Math.ceil(SOCKETS / ROOMS);
/** Each member holds one socket in every room: members = sockets per room. */
const MEMBERS = PER_ROOM;
const SEND_INTERVAL_MS = 1000; // one message per room per second
const API_INTERVAL_MS = 50; // about 20 API calls a second

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const roomId = (i: number) => (0xa0000000 + i).toString(16).padStart(8, "0").repeat(4); // 32 hex: a personal-style room
const percentile = (values: number[], p: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

type Client = {
  member: Member;
  room: string;
  socket: WebSocket | null;
  lastId: number;
  /** message id → times received */
  seen: Map<number, number>;
  /** message id → how each copy arrived (live, replay), for the report on any duplicate */
  how: Map<number, string[]>;
  synced: boolean;
  closedUnexpectedly: number;
};

const figures: Record<string, unknown> = {};
/** Which part of the run a delivery happened in (for duplicate reports). */
let phase = "steady";
const latencies: number[] = [];
const errors: string[] = [];

async function ticketFor(member: Member) {
  return expectOk(await call("POST", "/private/core/sessions/ticket", { as: member, body: { audience: "socket" } })).ticket as string;
}

async function connect(client: Client, ticket: string) {
  const since = client.lastId > 0 || client.seen.size > 0 ? `since=${client.lastId}` : "since=0";
  const response = await fetchWorker(`/parties/chat-room/SMP~${client.room}?${since}`, { headers: socketHeaders(ticket) });
  if (response.status !== 101 || !response.webSocket) {
    errors.push(`connect ${client.room} ${response.status} ${await response.text()}`);
    return;
  }
  const socket = response.webSocket;
  socket.accept();
  client.socket = socket;
  client.synced = false;
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(String(event.data));
    if (data.type === "chat.synced") client.synced = true;
    if (data.type === "chat.message") {
      const id = data.message.idChatroomMessage as number;
      client.seen.set(id, (client.seen.get(id) ?? 0) + 1);
      client.how.set(id, [...(client.how.get(id) ?? []), `${data.replay ? "replay" : "live"}@${phase}`]);
      client.lastId = Math.max(client.lastId, id);
      const sentAt = Number(String(data.message.message).split("|")[3]);
      if (!data.replay && sentAt) latencies.push(Date.now() - sentAt);
    }
    if (data.type === "error") errors.push(`socket error ${JSON.stringify(data)}`);
  });
  socket.addEventListener("close", () => {
    if (client.socket === socket) {
      client.socket = null;
      client.closedUnexpectedly++;
    }
  });
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function until(what: string, predicate: () => boolean, timeoutMs: number) {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
  return Date.now() - started;
}

describe("soak", () => {
  it(`${SOCKETS} sockets in ${ROOMS} rooms with API traffic for ${SECONDS} s; eviction, reconnect storm`, async () => {
    const setupStarted = Date.now();
    const members: Member[] = [];
    for (let i = 0; i < MEMBERS; i++) members.push(await dressUp(await signUp()));
    const rooms = Array.from({ length: ROOMS }, (_, i) => roomId(i));
    const clients: Client[] = [];
    for (const room of rooms) for (const member of members) clients.push({ member, room, socket: null, lastId: 0, seen: new Map(), how: new Map(), synced: false, closedUnexpectedly: 0 });
    const tickets = new Map<string, string>();
    for (const m of members) tickets.set(m.memberId, await ticketFor(m));
    // Each member opens one socket per room; batches keep the ramp realistic.
    await inBatches(clients, 50, (c) => connect(c, tickets.get(c.member.memberId)!));
    await until("every socket synced", () => clients.every((c) => c.synced), 60_000);
    figures.setupSeconds = (Date.now() - setupStarted) / 1000;
    figures.sockets = clients.filter((c) => c.socket).length;
    expect(figures.sockets).toBe(ROOMS * PER_ROOM);

    // ── steady phase: one message per room per second over HTTP, steady API reads, two evictions half-way.
    const sent = new Map<string, Set<number>>(rooms.map((r) => [r, new Set()]));
    let apiCalls = 0;
    let apiErrors = 0;
    let seq = 0;
    const deadline = Date.now() + SECONDS * 1000;
    const evictAt = Date.now() + (SECONDS * 1000) / 2;
    let evicted = false;

    const senders = rooms.map(async (room, r) => {
      await sleep((r * SEND_INTERVAL_MS) / ROOMS);
      while (Date.now() < deadline) {
        const author = members[seq % members.length]!;
        const n = ++seq;
        const reply = await call("POST", `/private/sns/chatrooms/${room}/messages/${author.memberId}`, {
          as: author,
          body: { message: `soak|${room.slice(0, 6)}|${n}|${Date.now()}`, requestId: `soak-${n}-${author.memberNo}` },
        });
        if (reply.status !== 200) errors.push(`send ${reply.status} ${JSON.stringify(reply.body)}`);
        else sent.get(room)!.add(reply.body.info.idChatroomMessage);
        await sleep(SEND_INTERVAL_MS);
      }
    });
    const readers = (async () => {
      const paths = ["/private/core/profiles/SMP/hot?pageSize=30", `/private/sns/chatroom/${rooms[0]}/messages?pageSize=50`, "/private/core/home/SMP", "/private/core/notifications", "/private/sns/chatroom/unread-counts"];
      let i = 0;
      while (Date.now() < deadline) {
        const who = members[i % members.length]!;
        const reply = await call("GET", paths[i % paths.length]!, { as: who });
        apiCalls++;
        if (reply.status !== 200) {
          apiErrors++;
          errors.push(`api ${paths[i % paths.length]} ${reply.status}`);
        }
        i++;
        await sleep(API_INTERVAL_MS);
      }
    })();
    const evictor = (async () => {
      await sleep(Math.max(0, evictAt - Date.now()));
      // Room 0: evicted with its sockets closed — every client reconnects with `since` and must miss nothing.
      const closedRoom = rooms[0]!;
      phase = "evicted";
      const stub = env.ChatRoom.get(env.ChatRoom.idFromName(`SMP~${closedRoom}`));
      await evictDurableObject(stub as unknown as DurableObjectStub, { webSockets: "close" });
      const started = Date.now();
      const dropped = clients.filter((c) => c.room === closedRoom);
      await until("sockets of the evicted room closed", () => dropped.every((c) => !c.socket), 10_000).catch(() => undefined);
      for (const c of dropped) if (c.socket) {
        c.socket.close();
        c.socket = null;
      }
      const fresh = new Map<string, string>();
      for (const m of members) fresh.set(m.memberId, await ticketFor(m));
      await inBatches(dropped, 50, (c) => connect(c, fresh.get(c.member.memberId)!));
      await until("evicted room resynced", () => dropped.every((c) => c.synced), 30_000);
      figures.evictedRoomResumeMs = Date.now() - started;
      // Room 1: evicted gracefully — sockets hibernate and keep receiving without reconnecting.
      if (rooms[1]) {
        const stub1 = env.ChatRoom.get(env.ChatRoom.idFromName(`SMP~${rooms[1]}`));
        await evictDurableObject(stub1 as unknown as DurableObjectStub);
      }
      evicted = true;
      phase = "steady-after-eviction";
    })();
    await Promise.all([...senders, readers, evictor]);
    expect(evicted).toBe(true);

    // Let the last fan-outs land, then check every socket got every message of its room exactly once.
    const totalSent = [...sent.values()].reduce((n, s) => n + s.size, 0);
    await until(
      "every message delivered",
      () => clients.every((c) => [...sent.get(c.room)!].every((id) => c.seen.has(id))),
      30_000,
    ).catch(() => undefined);
    let lost = 0;
    let duplicated = 0;
    let delivered = 0;
    for (const c of clients) {
      for (const id of sent.get(c.room)!) {
        const times = c.seen.get(id) ?? 0;
        if (times === 0) lost++;
        if (times > 1) duplicated += times - 1;
        delivered += Math.min(times, 1);
      }
    }
    const hibernatedRoomReconnects = clients.filter((c) => c.room === rooms[1]).reduce((n, c) => n + c.closedUnexpectedly, 0);
    Object.assign(figures, {
      seconds: SECONDS,
      rooms: ROOMS,
      messagesSent: totalSent,
      deliveriesExpected: totalSent * PER_ROOM,
      deliveries: delivered,
      lost,
      duplicated,
      apiCalls,
      apiErrors,
      deliveryP50Ms: percentile(latencies, 50),
      deliveryP99Ms: percentile(latencies, 99),
      hibernatedRoomSocketsDropped: hibernatedRoomReconnects,
    });

    // ── reconnect storm: every client drops and reconnects at once.
    const fresh = new Map<string, string>();
    for (const m of members) fresh.set(m.memberId, await ticketFor(m));
    for (const c of clients) {
      const s = c.socket;
      c.socket = null;
      s?.close();
    }
    phase = "storm";
    const stormStarted = Date.now();
    await Promise.all(clients.map((c) => connect(c, fresh.get(c.member.memberId)!)));
    await until("storm settled", () => clients.every((c) => c.synced), 60_000);
    figures.stormSettleMs = Date.now() - stormStarted;
    const after = new Map<string, number>();
    for (const room of rooms) {
      const author = members[0]!;
      const reply = await call("POST", `/private/sns/chatrooms/${room}/messages/${author.memberId}`, {
        as: author,
        body: { message: `soak|after|storm|${Date.now()}`, requestId: `soak-after-${room}` },
      });
      after.set(room, expectOk(reply).idChatroomMessage);
    }
    await until("post-storm message everywhere", () => clients.every((c) => c.seen.has(after.get(c.room)!)), 30_000).catch(() => undefined);
    const stormLost = clients.filter((c) => !c.seen.has(after.get(c.room)!)).length;
    const stormDuplicated = clients.filter((c) => (c.seen.get(after.get(c.room)!) ?? 0) > 1).length;
    const replayDuplicates = clients.reduce((n, c) => n + [...c.seen.values()].filter((t) => t > 1).length, 0);
    const duplicates = clients.flatMap((c) =>
      [...c.how.entries()].filter(([, how]) => how.length > 1).map(([id, how]) => `${c.room === rooms[0] ? "evicted-room" : c.room === rooms[1] ? "hibernated-room" : "room"}#${id}:${how.join(",")}`),
    );
    Object.assign(figures, { stormLost, stormDuplicated, replayDuplicates, duplicateSamples: duplicates.slice(0, 8) });
    for (const c of clients) c.socket?.close();

    console.log(`soak figures ${JSON.stringify(figures)}`);
    expect(errors.slice(0, 10)).toEqual([]);
    expect(apiErrors).toBe(0);
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(stormLost).toBe(0);
    expect(stormDuplicated).toBe(0);
    expect(replayDuplicates).toBe(0);
    expect(totalSent).toBeGreaterThanOrEqual(ROOMS * Math.floor(SECONDS / 2));
  });

  it("a retried requestId or award does not double; a failed batch leaves no half change", async () => {
    const [author, rater, owner] = [await dressUp(await signUp()), await dressUp(await signUp()), await dressUp(await signUp())];
    const room = roomId(99);
    // The same requestId, sent five times at once: one row, one id.
    const requestId = `retry-${author.memberNo}`;
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => call("POST", `/private/sns/chatrooms/${room}/messages/${author.memberId}`, { as: author, body: { message: "once", requestId } })),
    );
    const ids = new Set(replies.map((r) => expectOk(r).idChatroomMessage));
    expect(ids.size).toBe(1);
    const rows = await env.DB.prepare("select count(*) as n from chat_messages where member_id = ? and request_id = ?").bind(author.memberId, requestId).first<{ n: number }>();
    expect(rows!.n).toBe(1);

    // A photo rated twice (and raced) awards its M coin once.
    const form = new FormData();
    form.set("file", new File([pngBytes() as BlobPart], "p.png", { type: "image/png" }));
    form.set("type", "photo");
    const upload = expectOk(await call("POST", `/private/core/files/SMP/${owner.memberId}`, { as: owner, body: form }));
    expectOk(await call("POST", `/private/core/banners/${owner.memberId}`, { as: owner, body: { image: upload.url, pickable: true, width: upload.width, height: upload.height } }));
    const { id_banner: idBanner } = (await env.DB.prepare("select id_banner from banners where member_id = ? order by id_banner desc limit 1").bind(owner.memberId).first<{ id_banner: number }>())!;
    const coins = async () => (await env.DB.prepare("select coalesce(sum(amount), 0) as n from coin_ledger where member_id = ?").bind(rater.memberId).first<{ n: number }>())!.n;
    const ratings = async () => (await env.DB.prepare("select count(*) as n from banner_ratings where member_id = ?").bind(rater.memberId).first<{ n: number }>())!.n;

    // Fault injected into the coin award: the rating itself must not stay behind.
    await env.DB.prepare(`create trigger soak_fail_award before insert on coin_ledger when new.member_id = '${rater.memberId}' begin select raise(abort, 'injected fault'); end`).run();
    try {
      const failed = await call("POST", "/private/sns/banner-ratings", { as: rater, body: { idBanner, rating: 5 } });
      expectFailure(failed, 500, "500000");
    } finally {
      await env.DB.prepare("drop trigger soak_fail_award").run();
    }
    expect(await ratings()).toBe(0);
    expect(await coins()).toBe(0);

    const raced = await Promise.all(Array.from({ length: 4 }, () => call("POST", "/private/sns/banner-ratings", { as: rater, body: { idBanner, rating: 4 } })));
    expect(raced.some((r) => r.status === 200)).toBe(true);
    for (const r of raced) expect(r.status).toBeLessThan(500);
    expect((await call("POST", "/private/sns/banner-ratings", { as: rater, body: { idBanner, rating: 3 } })).status).toBeLessThan(500);
    expect(await coins()).toBe(1);
    expect(await ratings()).toBe(1);
  });
});
