// Query cost per call: D1 round trips and rows_read, read from the X-D1-Queries / X-D1-Rows-Read headers the worker
// adds outside production (worker/http/query-cost.ts). Every call runs on the large and on the small tenant:
// a list must read rows in proportion to pageSize, not to the tenant.
import { memberId, memberNo, sessionToken } from "../lib/tenant.mjs";
import { log } from "../lib/util.mjs";
import { PUBLIC_CHATROOM_ID } from "./api.mjs";

const auth = (code) => ({ "X-Access-Token": sessionToken(code, 1), "X-Member-ID": memberId(code, 1) });
export const sessionCookie = (code) => `velvet_session=${memberId(code, 1)}.${sessionToken(code, 1)}`;

/** List calls (pageSize given: target rows_read ≤ 3 × pageSize + 50) and single calls (reported only). */
export function costCalls(code) {
  const other = memberId(code, 2);
  const otherNo = memberNo(code, 2);
  const p = `/api/v7/public`;
  const q = `/api/v7/private`;
  return [
    { key: "health-db", path: `${p}/health/db` },
    { key: "profiles-hot", path: `${p}/core/profiles/${code}/hot?pageSize=48`, pageSize: 48 },
    { key: "profiles-intro", path: `${p}/core/profiles/${code}/intro?pageSize=100`, pageSize: 100 },
    { key: "profiles-last-access", path: `${p}/core/profiles/${code}/last-access?pageSize=30`, pageSize: 30 },
    { key: "profiles-last-chat", path: `${p}/core/profiles/${code}/last-chat-message?pageSize=30`, pageSize: 30 },
    { key: "profiles-new", path: `${p}/core/profiles/${code}/new?pageSize=30`, pageSize: 30 },
    { key: "profiles-gender", path: `${p}/core/profiles/${code}/multi-gender/2?pageSize=20`, pageSize: 20 },
    { key: "profiles-search", path: `${p}/core/profiles/${code}/search?keyword=velvet&pageSize=20`, pageSize: 20 },
    { key: "profiles-related", path: `${p}/sns/related-profiles/${code}/language/en/1?pageSize=20`, pageSize: 20 },
    { key: "pick-for-you", path: `${q}/core/profiles/pick-for-you?pageSize=20`, pageSize: 20, headers: auth(code) },
    { key: "profile-one", path: `${q}/core/profiles/${other}`, headers: auth(code) },
    { key: "profile-by-code", path: `${p}/core/profiles/${code}/member/${otherNo}` },
    { key: "members-count", path: `${p}/core/members/count/${code}` },
    { key: "chat-list", path: `${q}/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=100`, pageSize: 100, headers: auth(code) },
    { key: "chat-list-public", path: `${p}/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=100&project=${code}`, pageSize: 100 },
    { key: "visitors", path: `${q}/sns/visitors/${memberId(code, 1)}?pageSize=30`, pageSize: 30, headers: auth(code) },
    { key: "albums-of-member", path: `${q}/sns/member-albums/${memberNo(code, 2)}`, headers: auth(code) },
    { key: "home", path: `${q}/core/home/${code}`, headers: auth(code) },
  ];
}

/** Page routes whose loaders are measured (round trips per page: target ≤ 3). */
export function pageRoutes(code) {
  return [
    { key: "login", path: `/${code.toLowerCase()}/login` },
    { key: "home", path: `/${code.toLowerCase()}/home`, cookie: true },
    { key: "profiles", path: `/${code.toLowerCase()}/profiles`, cookie: true },
    { key: "public profile", path: `/${code.toLowerCase()}/share/${memberNo(code, 2)}`, cookie: true },
    { key: "public chat", path: `/${code.toLowerCase()}/public-chat/${PUBLIC_CHATROOM_ID}`, cookie: true },
  ];
}

/** Writes measured for their primary round trips (target: 1 each). */
export function writeCalls(code) {
  const q = `/api/v7/private`;
  return [
    {
      key: "post-chat-message",
      method: "POST",
      path: `${q}/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${memberId(code, 1)}`,
      headers: { ...auth(code), "Content-Type": "application/json" },
      body: () => JSON.stringify({ message: "bench primary count", requestId: `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}` }),
    },
  ];
}

async function measure(base, path, headers, init = {}) {
  const res = await fetch(base + path, { headers, redirect: "manual", ...init });
  await res.arrayBuffer();
  const q = res.headers.get("X-D1-Queries");
  const p = res.headers.get("X-D1-Primary-Queries");
  return { status: res.status, queries: q === null ? null : Number(q), primary: p === null ? null : Number(p), rowsRead: q === null ? null : Number(res.headers.get("X-D1-Rows-Read")) };
}

// Far-member simulation: the worker (development only, worker/http/query-cost.ts) waits before each D1 round trip as
// a member would whose nearest replica is 10 ms away: near the primary too (10 ms), or 150 ms from it.
export const NEAR = { primary: 10, replica: 10 };
export const FAR = { primary: 150, replica: 10 };
const FAR_RUNS = 9;

/** p50 server time near and far, the two taking turns (a shared machine drifts: blocks of runs would compare drift). */
async function nearAndFar(base, path, headers) {
  const times = { near: [], far: [] };
  const once = async (delay) => {
    const t0 = performance.now();
    const res = await fetch(base + path, { headers: { ...headers, "X-Bench-D1-Delay": `${delay.primary},${delay.replica}` }, redirect: "manual" });
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  await once(NEAR); // warm-up
  for (let i = 0; i < FAR_RUNS; i++) {
    times.near.push(await once(NEAR));
    times.far.push(await once(FAR));
  }
  const p50 = (list) => Math.round(list.sort((a, b) => a - b)[Math.floor(list.length / 2)] * 10) / 10;
  return { near: p50(times.near), far: p50(times.far) };
}

export async function runQueryCostSuite({ base, big, small }) {
  const calls = [];
  const skipped = [];
  for (const call of costCalls(big)) {
    const large = await measure(base, call.path, call.headers);
    const smallCall = costCalls(small).find((c) => c.key === call.key);
    const tiny = await measure(base, smallCall.path, smallCall.headers);
    if (large.status !== 200 || tiny.status !== 200) {
      skipped.push({ key: call.key, reason: `HTTP ${large.status} (large) / ${tiny.status} (small)` });
      continue;
    }
    const limit = call.pageSize ? 3 * call.pageSize + 50 : null;
    calls.push({ key: call.key, path: call.path, pageSize: call.pageSize ?? null, large, small: tiny, limit, pass: limit === null || large.rowsRead <= limit });
    log(`cost: ${call.key} large ${large.queries} q / ${large.rowsRead} rows, small ${tiny.queries} q / ${tiny.rowsRead} rows`);
  }
  const pages = [];
  for (const page of pageRoutes(big)) {
    const headers = page.cookie ? { Cookie: sessionCookie(big) } : {};
    const r = await measure(base, page.path, headers);
    if (r.status !== 200) {
      skipped.push({ key: `page ${page.key}`, reason: `HTTP ${r.status}` });
      continue;
    }
    pages.push({ key: page.key, path: page.path, ...r, limit: 3, pass: r.queries <= 3 });
    log(`cost: page ${page.key} ${r.queries} round trips (${r.primary} to the primary) / ${r.rowsRead} rows`);
  }
  const writes = [];
  for (const call of writeCalls(big)) {
    const r = await measure(base, call.path, call.headers, { method: call.method, body: call.body() });
    if (r.status !== 200) {
      skipped.push({ key: `write ${call.key}`, reason: `HTTP ${r.status}` });
      continue;
    }
    writes.push({ key: call.key, path: call.path, ...r });
    log(`cost: write ${call.key} ${r.queries} round trips (${r.primary} to the primary)`);
  }
  // Server time of each main page for a member near the primary and one far from it (same replica distance).
  const far = [];
  for (const page of pageRoutes(big)) {
    const headers = page.cookie ? { Cookie: sessionCookie(big) } : {};
    const { near, far: distant } = await nearAndFar(base, page.path, headers);
    far.push({ key: page.key, path: page.path, nearMs: near, farMs: distant, delays: { near: NEAR, far: FAR } });
    log(`cost: far member ${page.key} near ${near} ms, far ${distant} ms`);
  }
  return { calls, pages, writes, far, skipped };
}
