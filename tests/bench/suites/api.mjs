// API throughput and latency at 50 connections (autocannon), each endpoint probed first: one that is not
// mounted yet (or refuses the bench's valid call) is reported as skipped with the answer it gave.
import autocannon from "autocannon";
import { BENCH_PASSWORD, memberId, memberNo, sessionToken } from "../lib/tenant.mjs";
import { log, round, sleep } from "../lib/util.mjs";

export const PUBLIC_CHATROOM_ID = "velvetPublicChatroom000000000001";

const auth = (code, i) => ({ "X-Access-Token": sessionToken(code, i), "X-Member-ID": memberId(code, i) });
const json = { "Content-Type": "application/json" };

/**
 * The endpoints of the API suite. `kind` picks the target (read ≥ 60 %, write ≥ 40 % of the one-query baseline);
 * `request(n)` builds the n-th request so sessions and targets rotate (rate limits are per member).
 */
export function apiEndpoints({ code, sessions, members }) {
  let post = 0;
  return [
    { name: "baseline: bare route", key: "baseline-bare", kind: "baseline", request: () => ({ method: "GET", path: "/api/v7/public/health" }) },
    { name: "baseline: one D1 query", key: "baseline-db", kind: "baseline", request: () => ({ method: "GET", path: "/api/v7/public/health/db" }) },
    { name: "hot profiles list (pageSize 48)", key: "profiles-hot", kind: "read",
      request: () => ({ method: "GET", path: `/api/v7/public/core/profiles/${code}/hot?pageSize=48` }) },
    { name: "one profile", key: "profile-one", warmup: sessions, kind: "read",
      request: (n) => ({ method: "GET", path: `/api/v7/private/core/profiles/${memberId(code, (n * 7919) % members)}`, headers: auth(code, n % sessions) }) },
    { name: "chat messages list (pageSize 100)", key: "chat-list", warmup: sessions, kind: "read",
      request: (n) => ({ method: "GET", path: `/api/v7/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=100`, headers: auth(code, n % sessions) }) },
    { name: "home dashboard (the home page loader's call)", key: "home", warmup: sessions, kind: "read",
      request: (n) => ({ method: "GET", path: `/api/v7/private/core/home/${code}`, headers: auth(code, n % sessions) }) },
    { name: "post a chat message (D1 write + room broadcast)", key: "chat-post", warmup: sessions, kind: "write",
      request: (n) => {
        const i = n % sessions;
        const id = `bench-${process.pid}-${++post}`;
        return { method: "POST", path: `/api/v7/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${memberId(code, i)}`, headers: { ...auth(code, i), ...json },
          body: JSON.stringify({ message: `bench ${id}`, payload: { type: "text", content: `bench ${id}` }, requestId: id, isPrivate: false }) };
      } },
    { name: "login (PBKDF2-bound by design)", key: "login", kind: "login",
      // Logins come from many addresses: each request gets its own, so the per-address limit (120/min) measures
      // nothing here; accounts rotate too (10/min each).
      request: (n) => ({ method: "POST", path: `/api/v7/public/core/sessions/${code}`, headers: { ...json, "CF-Connecting-IP": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
        body: JSON.stringify({ username: `bench${(n * 13) % members}@${code.toLowerCase()}.example`, password: BENCH_PASSWORD }) }) },
  ];
}

export async function probe(base, endpoint, n = 0) {
  const r = endpoint.request(n);
  const res = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body });
  const text = await res.text();
  let code = null;
  try { code = JSON.parse(text).returnCode; } catch { /* not JSON */ }
  return { status: res.status, returnCode: code, headers: res.headers, body: text };
}

function cannon(base, endpoint, { connections, duration, amount }) {
  let n = 1000;
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: base,
      connections,
      ...(amount ? { amount } : { duration }),
      requests: [{ setupRequest: (req) => ({ ...req, ...endpoint.request(n++) }) }],
    }, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on("error", reject);
  });
}

/**
 * Each endpoint runs once; the one-query baseline runs first and again after every measured endpoint but login.
 * An endpoint's ratio is taken against the mean of the baseline runs just before and just after it (`reference`):
 * on this shared 2-core machine capacity drifts during a run (the same baseline measured 230–370 req/s), and a
 * baseline from minutes earlier made ratios swing by ±10 points between identical runs.
 */
export async function runApiSuite({ base, tenant, duration, connections = 50 }) {
  const results = {};
  const skipped = [];
  const endpoints = apiEndpoints(tenant);
  const baselineDb = endpoints.find((e) => e.key === "baseline-db");
  const dbRuns = [];
  for (const endpoint of endpoints) {
    const answer = await probe(base, endpoint);
    if (answer.status !== 200) {
      skipped.push({ key: endpoint.key, name: endpoint.name, reason: `probe answered HTTP ${answer.status} ${answer.returnCode ?? ""}`.trim() });
      log(`api: skip ${endpoint.key} (HTTP ${answer.status} ${answer.returnCode ?? ""})`);
      continue;
    }
    results[endpoint.key] = await measure(base, endpoint, { duration, connections });
    if (endpoint === baselineDb) dbRuns.push(results[endpoint.key]);
    else if (endpoint.kind !== "baseline" && endpoint.kind !== "login" && dbRuns.length) {
      const before = dbRuns.at(-1);
      const after = await measure(base, baselineDb, { duration, connections }, "baseline-db again");
      dbRuns.push(after);
      results[endpoint.key].reference = { rps: round((before.rps + after.rps) / 2), p99: round((before.p99 + after.p99) / 2), runs: [before.rps, after.rps] };
    }
  }
  if (results["baseline-db"]) results["baseline-db"].runs = dbRuns.map((r) => ({ rps: r.rps, p99: r.p99 }));
  return { results, skipped };
}

async function measure(base, endpoint, { duration, connections }, label = endpoint.key) {
  // Login is CPU-bound by design (100,000 PBKDF2 rounds): fewer connections keep the run short and the figure honest.
  const c = endpoint.kind === "login" ? 10 : connections;
  // Warm-up by count, not time: a timed warm-up abandons slow requests mid-flight and the server is still
  // busy with them when the measured run starts. A private endpoint's warm-up uses every bench session once,
  // so the run measures a server that has seen its members before (the worker keeps who a session is, and
  // checks it inside each read's own batch), not 1,000 first visits.
  await cannon(base, endpoint, { connections: endpoint.warmup ? c : 5, amount: endpoint.warmup ?? 20 });
  const r = await cannon(base, endpoint, { connections: c, duration });
  const result = {
    name: endpoint.name, kind: endpoint.kind, connections: c,
    // Only answered calls count: a 429 of a rate limit is not throughput (login reports its 200s per second).
    rps: round(endpoint.kind === "login" ? r["2xx"] / duration : r.requests.average), p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total,
    non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count])),
  };
  log(`api: ${label} ${result.rps} req/s p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms non2xx ${r.non2xx} timeouts ${r.timeouts} errors ${r.errors}`);
  await sleep(500);
  return result;
}

export { memberNo };
