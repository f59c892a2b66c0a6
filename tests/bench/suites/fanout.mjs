// Fan-out: N real WebSocket clients in one room; a message is accepted over HTTP (the chat API, or the bare room's
// relay route) and each socket records when it arrives. Every socket checks the sequence: nothing lost, nothing
// duplicated, nothing out of order, no socket dropped. The bare room (tests/bench/bare-room) is the baseline.
import { memberId, sessionToken } from "../lib/tenant.mjs";
import { log, percentile, round, sleep } from "../lib/util.mjs";
import { PUBLIC_CHATROOM_ID } from "./api.mjs";
import { SOCKET_PROTOCOL, SOCKET_TICKET_PREFIX } from "../../../worker/contract/session.constants.ts";

const now = () => performance.timeOrigin + performance.now();
const MARK = /bench#(\w+)#(\d+)#([\d.]+)/;

class Client {
  /** `target`: a socket URL, or { url, protocols } when the socket carries a ticket (Sec-WebSocket-Protocol). */
  constructor(target, run) {
    const { url, protocols } = typeof target === "string" ? { url: target, protocols: undefined } : target;
    this.run = run;
    this.last = 0;
    this.seen = new Set();
    this.outOfOrder = 0;
    this.duplicates = 0;
    this.latencies = [];
    this.closed = false;
    this.ws = protocols ? new WebSocket(url, protocols) : new WebSocket(url);
    this.open = new Promise((resolve, reject) => {
      this.ws.addEventListener("open", resolve, { once: true });
      this.ws.addEventListener("error", () => reject(new Error(`socket failed: ${url}`)), { once: true });
    });
    this.ws.addEventListener("close", () => (this.closed = true));
    this.ws.addEventListener("message", (event) => {
      const m = typeof event.data === "string" ? event.data.match(MARK) : null;
      if (!m || m[1] !== this.run.id) return;
      const seq = Number(m[2]);
      if (this.seen.has(seq)) { this.duplicates++; return; }
      this.seen.add(seq);
      if (seq < this.last) this.outOfOrder++;
      else this.last = seq;
      this.latencies.push(now() - Number(m[3]));
    });
  }
}

async function pool(items, width, work) {
  const out = [];
  let i = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (i < items.length) { const k = i++; out[k] = await work(items[k], k); }
  }));
  return out;
}

/** Room access for one side of the comparison: socket URLs and the HTTP call that accepts a message. */
export function bareSide(base, room) {
  const ws = base.replace(/^http/, "ws");
  return {
    name: "bare room",
    // Connection ids unique per run: a closing socket of the previous run must not take a new one's id.
    socketUrls: async (n) => {
      const run = Math.random().toString(36).slice(2, 8);
      return Array.from({ length: n }, (_, i) => `${ws}/parties/bare-room/${room}?_pk=${run}-${i}`);
    },
    send: async (text) => {
      const res = await fetch(`${base}/broadcast/${room}`, { method: "POST", body: JSON.stringify({ type: "message", message: text }) });
      await res.arrayBuffer();
      return res.status === 200;
    },
  };
}

export function chatSide(base, code, sessions) {
  const ws = base.replace(/^http/, "ws");
  let n = 0;
  const auth = (i) => ({ "X-Access-Token": sessionToken(code, i), "X-Member-ID": memberId(code, i) });
  return {
    name: "chat room",
    // 100 members hold the sockets (up to 10 tabs each): tickets are fetched once per member, not per socket.
    socketUrls: async (count) => {
      const holders = Math.min(count, 100, sessions);
      const tickets = await pool(Array.from({ length: holders }, (_, i) => i), 8, async (i) => {
        const res = await fetch(`${base}/api/v7/private/core/sessions/ticket`, { method: "POST", headers: { ...auth(i), "Content-Type": "application/json" }, body: JSON.stringify({ audience: "socket" }) });
        const body = await res.json();
        if (!body.info?.ticket) throw new Error(`no socket ticket: HTTP ${res.status} ${body.returnCode}`);
        return body.info.ticket;
      });
      // The ticket rides in Sec-WebSocket-Protocol, as the browser sends it (never in the URL).
      return Array.from({ length: count }, (_, i) => ({
        url: `${ws}/parties/chat-room/${code}~${PUBLIC_CHATROOM_ID}`,
        protocols: [SOCKET_PROTOCOL, `${SOCKET_TICKET_PREFIX}${tickets[i % holders]}`],
      }));
    },
    send: async (text) => {
      const i = n++ % sessions;
      const res = await fetch(`${base}/api/v7/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${memberId(code, i)}`, {
        method: "POST", headers: { ...auth(i), "Content-Type": "application/json" },
        body: JSON.stringify({ message: text, payload: { type: "text", content: text }, requestId: `f${process.pid}-${n}-${Date.now()}`, isPrivate: false }),
      });
      await res.arrayBuffer();
      return res.status === 200;
    },
  };
}

async function connect(side, count, run) {
  const urls = await side.socketUrls(count);
  const clients = [];
  for (let i = 0; i < urls.length; i += 50) {
    const batch = urls.slice(i, i + 50).map((u) => new Client(u, run));
    await Promise.all(batch.map((c) => c.open));
    clients.push(...batch);
  }
  await sleep(300);
  return clients;
}

function close(clients) {
  for (const c of clients) try { c.ws.close(); } catch { /* already closed */ }
}

const everyoneHas = (clients, seq) => clients.every((c) => c.seen.has(seq) || c.closed);

async function waitFor(clients, seq, ms) {
  const deadline = Date.now() + ms;
  while (!everyoneHas(clients, seq) && Date.now() < deadline) await sleep(2);
}

function summary(clients, sent, failedSends, extra = {}) {
  const lat = clients.flatMap((c) => c.latencies).sort((a, b) => a - b);
  const received = clients.reduce((s, c) => s + c.latencies.length, 0);
  return {
    sockets: clients.length, messages: sent, p50: round(percentile(lat, 50)), p99: round(percentile(lat, 99)), max: round(lat.at(-1)),
    expected: clients.length * sent, received, lost: clients.length * sent - received, duplicates: clients.reduce((s, c) => s + c.duplicates, 0),
    outOfOrder: clients.reduce((s, c) => s + c.outOfOrder, 0), dropped: clients.filter((c) => c.closed).length, failedSends, ...extra,
  };
}

/** Latency: `messages` sent one after another, each once every socket has the previous one (or 15 s passed). */
export async function latencyRun(side, sockets, messages) {
  const run = { id: `r${Math.floor(Math.random() * 1e9).toString(36)}` };
  const clients = await connect(side, sockets, run);
  let failed = 0;
  for (let seq = 1; seq <= messages; seq++) {
    if (!(await side.send(`bench#${run.id}#${seq}#${now().toFixed(3)}`))) failed++;
    await waitFor(clients, seq, 15_000);
  }
  await sleep(200);
  close(clients);
  return summary(clients, messages, failed);
}

/** Sustained rate: `window` sends in flight for `seconds`, 100 sockets; rate counts messages every socket received. */
export async function sustainedRun(side, sockets, seconds, window = 8) {
  const run = { id: `s${Math.floor(Math.random() * 1e9).toString(36)}` };
  const clients = await connect(side, sockets, run);
  let seq = 0;
  let failed = 0;
  const t0 = Date.now();
  await Promise.all(Array.from({ length: window }, async () => {
    while (Date.now() - t0 < seconds * 1000) {
      const mine = ++seq;
      if (!(await side.send(`bench#${run.id}#${mine}#${now().toFixed(3)}`))) failed++;
    }
  }));
  // Concurrent sends may reach the room in any order: here every socket must hold every sequence number once.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && clients.some((c) => c.seen.size < seq && !c.closed)) await sleep(10);
  const elapsed = (Date.now() - t0) / 1000;
  close(clients);
  const s = summary(clients, seq, failed);
  return { ...s, seconds: round(elapsed), messagesPerSecond: round((seq - failed) / elapsed) };
}

/**
 * The bare and the chat room take turns at each size (bare 100, chat 100, bare 500, …), so the two sides of each
 * comparison run seconds apart, not minutes: capacity on this shared machine drifts during a run.
 */
export async function runFanoutSuite({ bare, chat, sizes = [100, 500, 1000], messages = 200, sustainSeconds = 8 }) {
  const out = { bare: {}, chat: {}, skipped: [] };
  const sides = [["bare", bare], ["chat", chat]].filter(([, side]) => side);
  const failed = new Set();
  const attempt = async (key, side, work) => {
    if (failed.has(key)) return;
    try {
      await work();
    } catch (error) {
      failed.add(key);
      out.skipped.push({ key: `fanout ${key}`, reason: String(error.message ?? error).split("\n")[0] });
      log(`fanout: ${side.name} failed: ${error.message}`);
    }
  };
  for (const n of sizes) {
    for (const [key, side] of sides) {
      await attempt(key, side, async () => {
        // Fewer messages in the big rooms keep the run inside its time budget; each is still checked on every socket.
        out[key][n] = await latencyRun(side, n, n >= 1000 ? Math.min(messages, 20) : n >= 500 ? Math.min(messages, 30) : messages);
        log(`fanout: ${side.name} ${n} sockets p50 ${out[key][n].p50} ms p99 ${out[key][n].p99} ms lost ${out[key][n].lost} dropped ${out[key][n].dropped}`);
      });
    }
  }
  for (const [key, side] of sides) {
    await attempt(key, side, async () => {
      out[key].sustained = await sustainedRun(side, 100, sustainSeconds);
      log(`fanout: ${side.name} sustained ${out[key].sustained.messagesPerSecond} msg/s to 100 sockets, lost ${out[key].sustained.lost}`);
    });
  }
  return out;
}
