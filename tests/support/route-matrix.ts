import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import type { Hono } from "hono";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { call, expectOk, fetchWorker, signUp, uniqueEmail, type Member, type Reply } from "./client";
import { fakeStripe } from "./fake-stripe";

/**
 * The one table of per-route expectations used by the security suites (authorization matrix, hostile
 * input). Every route mounted in the Hono API must have an entry here: a route missing from this table
 * fails `tests/api/security-matrix.test.ts`, so a new endpoint cannot slip through unchecked.
 *
 * Keys are `METHOD /public|private/<Hono path pattern>`, exactly as `api.routes` reports them.
 */

/** The members every case may use. `owner` carries secret profile fields no one else may ever see. */
export type Fixture = {
  /** Rightful owner (tenant SMP). */
  owner: Member;
  /** Another member of the same tenant. */
  other: Member;
  /** A member of another tenant (ABC). */
  foreign: Member;
  /** A fresh member for cases that consume their owner (end the session, delete the account, hit limits). */
  fresh: (project?: string) => Promise<Member>;
  /** Values stored on the owner that must never reach anyone else. */
  secrets: string[];
  /** A fresh member of SMP with nickname, qualified avatar and the given kycStatus (target of an owner's act). */
  member: (options?: { kyc?: number; project?: string; gender?: number }) => Promise<Member>;
};

/** A request as the rightful owner sends it. `params` fill the `:name` segments of the pattern. */
export type RequestSpec = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON body (objects) — mutated by the hostile-input suite. */
  body?: unknown;
  /** Multipart body (uploads); built fresh per call. */
  form?: () => FormData;
  /** Who the owner is when not `fixture.owner` (e.g. a fresh member). */
  as?: Member;
};

export type Access =
  /** Denied (401/403/404) and nothing changes. */
  | "denied"
  /** Succeeds with the caller's own view; the owner's secrets must not appear in the answer. */
  | "allowed";

export type RouteCase = {
  /** Builds the owner's valid request (may create fixtures through the API). */
  request: (f: Fixture) => Promise<RequestSpec> | RequestSpec;
  /** The same request with another member's session (default "denied"). */
  other?: Access;
  /** The same request with a session of tenant ABC (default "denied"). */
  foreign?: Access;
  /** Owner's expected status (default 200). */
  status?: number;
  /** Body fields whose type is free-form JSON (the hostile suite does not mutate their type). */
  freeFields?: string[];
  /** The body is ignored by the route (no body mutation; e.g. logout). */
  noBody?: boolean;
  /** Extra assertions on the owner's reply. */
  check?: (reply: Reply, f: Fixture) => Promise<void> | void;
};

export type PublicCase = {
  request: (f: Fixture) => Promise<RequestSpec> | RequestSpec;
  status?: number;
  freeFields?: string[];
  noBody?: boolean;
};

// ── fixture helpers (through the API where it is cheap, straight into D1 where a state needs time or rank) ──

/** A syntactically valid browser key pair for push registration (tests/api/web-push.test.ts uses real ones). */
const TEST_PUSH_KEYS = { p256dh: `B${"A".repeat(86)}`, auth: "AAAAAAAAAAAAAAAAAAAAAA" };

/** Any signed-in member may call it with their own view; another tenant gets their own view too. */
const anyMember = { other: "allowed", foreign: "allowed" } as const;
/** Any member of the tenant in the path; another tenant's session is refused (sessionProject → 404). */
const tenantWide = { other: "allowed", foreign: "denied" } as const;

/** A member the daily draw accepts (LOTTERY_MIN_ACCOUNT_DAYS old, approved avatar): eligibility has its own tests. */
async function lotteryEntrant(m: Member): Promise<Member> {
  await env.DB.batch([
    env.DB.prepare("update members set created_at = created_at - 8 * 86400000 where id = ?").bind(m.memberId),
    env.DB.prepare("update profiles set avator = '/media/SMP/x/avatar/a.jpg', qualify = 1, blur = 0 where member_id = ?").bind(m.memberId),
  ]);
  return m;
}
let sequence = 0;

async function lastId(sql: string, ...binds: unknown[]) {
  const row = await env.DB.prepare(`${sql} order by 1 desc limit 1`).bind(...binds).first<{ id: number }>();
  if (!row) throw new Error(`fixture not found: ${sql}`);
  return row.id;
}

let png: Uint8Array | undefined;
/** A small real PNG (photon-encoded), cached. */
export function pngBytes() {
  if (!png) {
    const width = 48;
    const data = new Uint8Array(width * width * 4);
    for (let i = 0; i < width * width; i++) data.set([100 + (i % 60), 120, 150, 255], i * 4);
    const image = new PhotonImage(data, width, width);
    png = image.get_bytes();
    image.free();
  }
  return png;
}
/** An image uploaded for a private message (type `private`): its /private-media URL, loadable by sender and recipient only. */
export async function privateImage(as: Member): Promise<string> {
  const data = new FormData();
  data.set("file", new File([pngBytes() as BlobPart], "private.png", { type: "image/png" }));
  data.set("type", "private");
  return expectOk(await call("POST", `/private/core/files/${as.memberId}`, { as, body: data })).url as string;
}
function photoForm() {
  const data = new FormData();
  data.set("file", new File([pngBytes() as BlobPart], "photo.png", { type: "image/png" }));
  data.set("type", "photo");
  return data;
}

/** A fresh operator of SMP (README "Running in production": the first one is granted in D1). */
async function operator(f: Fixture): Promise<Member> {
  const op = await f.fresh();
  await env.DB.prepare("insert into operators (project_code, member_id, created_at) values ('SMP', ?, ?)").bind(op.memberId, Date.now()).run();
  return op;
}
/** A suspension decided by a fresh operator on a fresh member (optionally appealed), for the moderation routes. */
async function suspension(f: Fixture, appealed = false) {
  const op = await operator(f);
  const target = await f.member();
  const reply = await call("POST", `/private/core/moderation/SMP/members/${target.memberNo}/decisions`, { as: op, body: { action: "suspend", hours: 24 } });
  const idAction = expectOk(reply).idAction as number;
  if (appealed) expectOk(await call("POST", "/private/core/moderation/SMP/appeals", { as: target, body: { idAction, text: "please" } }));
  return { op, target, idAction };
}

async function chatMessage(author: Member) {
  const reply = await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, {
    as: author,
    body: { message: `fixture ${++sequence}`, requestId: `fixture-${author.memberNo}-${sequence}` },
  });
  return expectOk(reply).idChatroomMessage as number;
}
async function openAlbum(owner: Member) {
  return expectOk(await call("POST", "/private/sns/albums", { as: owner, body: { title: `Open ${++sequence}` } })).idAlbum as number;
}
async function keyedAlbum(owner: Member) {
  return expectOk(await call("POST", "/private/sns/albums", { as: owner, body: { title: `Keyed ${++sequence}`, secretKey: "a secret key" } })).idAlbum as number;
}
async function albumUpload(owner: Member, idAlbum: number) {
  const data = new FormData();
  data.set("file", new File([pngBytes() as BlobPart], "p.png", { type: "image/png" }));
  return expectOk(await call("POST", `/private/sns/albums/${idAlbum}/files`, { as: owner, body: data })).filePath as string;
}
async function banner(owner: Member) {
  const upload = expectOk(await call("POST", `/private/core/files/SMP/${owner.memberId}`, { as: owner, body: photoForm() }));
  expectOk(await call("POST", `/private/core/banners/${owner.memberId}`, { as: owner, body: { image: upload.url, pickable: true, width: upload.width, height: upload.height } }));
  return lastId("select id_banner as id from banners where member_id = ?", owner.memberId);
}
async function task(creator: Member) {
  expectOk(await call("POST", "/private/sns/tasks", { as: creator, body: { subject: `Task ${++sequence}`, description: "Do it well." } }));
  return lastId("select id_task as id from tasks where member_id = ?", creator.memberId);
}
async function mission(f: Fixture) {
  const creator = await f.member();
  const taker = await f.member();
  const idTask = await task(creator);
  expectOk(await call("POST", `/private/sns/tasks/${idTask}/take-up`, { as: taker }));
  return { creator, taker, idMission: await lastId("select id_mission as id from missions where member_id = ?", taker.memberId) };
}
async function issueOtp(m: Member) {
  expectOk(await call("POST", `/private/core/otp/${m.memberId}`, { as: m, body: {} }));
  const mail = await env.DB.prepare("select body from mail_outbox where to_email = ? order by id desc limit 1").bind(m.email).first<{ body: string }>();
  return mail!.body.match(/\b(\d{6})\b/)![1]!;
}
async function giveFlame(holder: Member) {
  await env.DB.prepare("insert into flame_passes (project_code, holder_member_id, from_member_id, created_at) values ('SMP', ?, null, ?)").bind(holder.memberId, Date.now() + ++sequence).run();
}
/** A master (multiGender 1) who owns a fresh slave (multiGender 3); listed on the market when asked. */
async function ownership(f: Fixture, listed = false) {
  const master = await f.member();
  const slave = await f.member();
  await env.DB.prepare("update profiles set multi_gender = 1 where member_id = ?").bind(master.memberId).run();
  await env.DB.prepare("update profiles set multi_gender = 3 where member_id = ?").bind(slave.memberId).run();
  expectOk(await call("POST", "/private/sns/sub-members/SMP/join", { as: slave, body: { masterMemberNo: master.memberNo } }));
  if (listed) expectOk(await call("POST", "/private/sns/game/market/slave", { as: master, body: { simpleCode: slave.memberNo } }));
  return { master, slave };
}
async function unqualified(f: Fixture): Promise<RequestSpec> {
  const target = await f.member();
  const row = await env.DB.prepare("select id_profile from profiles where member_id = ?").bind(target.memberId).first<{ id_profile: number }>();
  return { as: await f.member(), params: { idProfile: String(row!.id_profile) } };
}
async function connection(owner: Member, target: Member) {
  expectOk(await call("POST", "/private/sns/connections", { as: owner, body: { memberNo: target.memberNo } }));
  return lastId("select id_connection as id from chat_connections where member_id = ?", owner.memberId);
}
/** A stranger's direct message waiting as a request (the recipient accepts only from connections). */
async function messageRequest(f: Fixture) {
  const recipient = await f.member();
  const stranger = await f.member();
  expectOk(await call("PUT", "/private/sns/chat-settings", { as: recipient, body: { acceptFrom: "friends" } }));
  const room = directChatroomId(stranger.memberNo, recipient.memberNo);
  await call("POST", `/private/sns/chatrooms/${room}/messages/${stranger.memberId}`, { as: stranger, body: { message: "hi", requestId: `req-${stranger.memberNo}` } });
  return { recipient, idRequest: await lastId("select id_request as id from chat_message_requests where member_id = ?", recipient.memberId) };
}
/** A stranger's image in a direct room, held blurred until the recipient accepts it. */
async function strangerImage(f: Fixture) {
  const recipient = await f.member({ kyc: 1 });
  const stranger = await f.member({ kyc: 1 });
  const room = directChatroomId(stranger.memberNo, recipient.memberNo);
  const src = await privateImage(stranger);
  const sent = expectOk(await call("POST", `/private/sns/chatrooms/${room}/messages/${stranger.memberId}`, { as: stranger, body: { message: "", payload: { type: "img", src }, requestId: `img-${stranger.memberNo}` } }));
  return { recipient, idChatroomMessage: sent.idChatroomMessage as number };
}

/** Discovery lists and public profile reads, mounted for visitors and members alike. */
function discoveryRoutes(scope: "public" | "private") {
  const base = `GET /${scope}`;
  const extra = scope === "private" ? tenantWide : {};
  const lists: Record<string, (f: Fixture) => RequestSpec> = {
    "/core/profiles/:project/hot": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/intro": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/intro/seven": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/last-chat-message": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/last-access": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/new": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/search": () => ({ params: { project: "SMP" }, query: { keyword: "Owner" } }),
    "/core/profiles/:project/multi-gender/:gender": () => ({ params: { project: "SMP", gender: "1" } }),
    "/core/profiles/:project/zodiac-sign": () => ({ params: { project: "SMP" }, query: { sign: "leo" } }),
    "/core/profiles/:project/birthday": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/all": () => ({ params: { project: "SMP" } }),
    "/core/profiles/:project/member/:simpleCode": (f) => ({ params: { project: "SMP", simpleCode: f.owner.memberNo } }),
    "/core/profiles/:project/page/:simpleCode": (f) => ({ params: { project: "SMP", simpleCode: f.owner.memberNo } }),
    "/core/profiles/:project/feed": () => ({ params: { project: "SMP" } }),
    "/sns/related-profiles/:project/language/:lang/:lookFor": () => ({ params: { project: "SMP", lang: "en", lookFor: "1" } }),
    "/core/members/count/:project": () => ({ params: { project: "SMP" } }),
    "/sns/visitors/:project/code/:simpleCode": (f) => ({ params: { project: "SMP", simpleCode: f.owner.memberNo } }),
    "/sns/actions/:project/:simpleCode": (f) => ({ params: { project: "SMP", simpleCode: f.owner.memberNo } }),
    "/sns/characters/:project": () => ({ params: { project: "SMP" } }),
    "/sns/characters/:project/:idCharacter/users": () => ({ params: { project: "SMP", idCharacter: "1" } }),
  };
  return Object.fromEntries(Object.entries(lists).map(([path, request]) => [`${base}${path}`, { request, ...extra }])) as Record<string, RouteCase>;
}

/** Public routes (no session): only the hostile-input suite and the leak checks use them. */
export const publicRoutes: Record<string, PublicCase> = {
  // ── session (worker/features/session/session.routes.ts)
  "POST /public/core/members/referral-signup": {
    request: async () => {
      const referrer = await signUp("SMP");
      const row = await env.DB.prepare("select referral_code from members where id = ?").bind(referrer.memberId).first<{ referral_code: string }>();
      return { body: { username: uniqueEmail("ref"), password: "correct horse battery", referralCode: row!.referral_code, adult: true } };
    },
  },
  "POST /public/core/members/:project": {
    request: () => ({ params: { project: "SMP" }, body: { username: uniqueEmail("signup"), password: "correct horse battery", adult: true } }),
  },
  "POST /public/core/sessions/:project": {
    request: async (f) => {
      const m = await f.fresh();
      return { params: { project: "SMP" }, body: { username: m.email, password: m.password } };
    },
  },
  "POST /public/core/members/:project/forget/password": {
    request: (f) => ({ params: { project: "SMP" }, body: { email: f.owner.email } }),
  },
  "POST /public/core/members/:project/reset/password": {
    // A syntactically valid but unknown token: refused with 400 (the happy path lives in session.test.ts).
    request: () => ({ params: { project: "SMP" }, body: { token: "x".repeat(40), newPassword: "another long password" } }),
    status: 400,
  },

  // ── health (worker/features/health/health.routes.ts)
  "GET /public/health": { request: () => ({}) },
  "GET /public/health/db": { request: () => ({}) },

  // ── AI room (worker/features/ai/ai.routes.ts): kycStatus 9 only, so a visitor is refused with 403.
  "POST /public/partner/ai/image/actor/test_male": { request: () => ({ body: { prompt: "a lighthouse at dusk" } }), status: 403 },
  "GET /public/partner/ai/images": { request: () => ({}), status: 403 },

  // ── albums (worker/features/albums/albums.routes.ts)
  "GET /public/sns/albums/:project/:idAlbum": {
    request: async (f) => ({ params: { project: "SMP", idAlbum: String(await openAlbum(f.owner)) } }),
  },
  // A visitor proves the key in the body (never the address): the album with photos and seed, and an unlock cookie.
  "POST /public/sns/albums/:project/:idAlbum/unlock": {
    request: async (f) => ({ params: { project: "SMP", idAlbum: String(await keyedAlbum(f.owner)) }, body: { secretKey: "a secret key" } }),
  },
  "GET /public/sns/member-albums/:project/:memberNo": { request: (f) => ({ params: { project: "SMP", memberNo: f.owner.memberNo } }) },

  // ── market (worker/features/market/market.routes.ts)
  "GET /public/sns/sub-members/:project/:memberNo": { request: (f) => ({ params: { project: "SMP", memberNo: f.owner.memberNo } }) },

  // ── profiles and media, readable by visitors (worker/features/profiles/profiles.routes.ts, media.routes.ts)
  ...discoveryRoutes("public"),
  "GET /public/core/banners/users/:id": { request: (f) => ({ params: { id: f.owner.memberNo } }) },
  "GET /public/core/banners/:project": { request: () => ({ params: { project: "SMP" } }) },

  // ── chat, readable by visitors (worker/features/chat/chat.routes.ts)
  "GET /public/sns/chatroom/messages/:id": {
    request: async (f) => ({ params: { id: String(await chatMessage(f.owner)) }, query: { project: "SMP" } }),
  },
  "GET /public/sns/chatroom/:id/messages": { request: () => ({ params: { id: PUBLIC_CHATROOM_ID }, query: { project: "SMP" } }) },
  "GET /public/sns/chatroom/:id/last-message": { request: () => ({ params: { id: PUBLIC_CHATROOM_ID }, query: { project: "SMP" } }) },
  // Card payments' webhook: without a valid provider signature it is refused (tests/api/card-payments.test.ts).
  "POST /public/core/card/webhook": { request: () => ({ body: { id: "evt_matrix", type: "checkout.session.completed" } }), status: 400 },
  // DNA pairing needs a session (401 for visitors); a creator profile reads as a visitor sees it (null when none).
  "GET /public/family/dna/:project/:simpleCode": { request: (f) => ({ params: { project: "SMP", simpleCode: f.owner.memberNo } }), status: 401 },
  "GET /public/core/creator-profiles/:project/:simpleCode": { request: (f) => ({ params: { project: "SMP", simpleCode: f.owner.memberNo } }) },
  // ── LINE login (worker/features/line/line.routes.ts): not configured in these tests, so the flows answer 404
  // lineNotConfigured (the flows themselves: tests/api/line-login.test.ts, against a fake LINE issuer).
  "GET /public/core/line/:project": { request: () => ({ params: { project: "SMP" } }) },
  "POST /public/core/line/:project/authorize": { request: () => ({ params: { project: "SMP" }, body: { redirectUrl: "http://velvet.test/smp/line-callback" } }), status: 404 },
  "POST /public/core/sessions/:project/line": {
    request: () => ({ params: { project: "SMP" }, body: { code: "a-code", state: "s".repeat(43), redirectUrl: "http://velvet.test/smp/line-callback" } }),
    status: 404,
  },
  "POST /public/core/members/:project/line": { request: () => ({ params: { project: "SMP" }, body: { adult: true } }), status: 404 },
};

/** Private routes (behind requireSession). */
export const privateRoutes: Record<string, RouteCase> = {
  // ── session
  "POST /private/core/sessions/expire": {
    request: async (f) => ({ as: await f.fresh() }),
    other: "allowed",
    foreign: "allowed",
    noBody: true,
    check: async (reply, _f) => {
      expectOk(reply);
    },
  },
  "POST /private/core/sessions/ticket": {
    request: () => ({ body: { audience: "socket" } }),
    other: "allowed",
    foreign: "allowed",
  },
  "PUT /private/core/members/password/:memberId": {
    request: async (f) => {
      const m = await f.fresh();
      return { as: m, params: { memberId: m.memberId }, body: { oldPassword: m.password, newPassword: "a brand new password" } };
    },
  },
  "GET /private/core/members/:memberId/referral": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "POST /private/core/otp/:memberId": {
    request: async (f) => {
      const m = await f.fresh();
      return { as: m, params: { memberId: m.memberId }, body: {} };
    },
  },

  // ── privacy (worker/features/privacy/privacy.routes.ts)
  "GET /private/core/members/:memberId/export": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "DELETE /private/core/members/:memberId": {
    request: async (f) => {
      const m = await f.fresh();
      return { as: m, params: { memberId: m.memberId }, body: { password: m.password } };
    },
  },

  // ── social graph (worker/features/social/social.routes.ts): acts on another member by number.
  "GET /private/core/follows/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), ...anyMember },
  "POST /private/core/follows/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), noBody: true, ...anyMember },
  "DELETE /private/core/follows/:memberNo": {
    request: async (f) => {
      // A fresh follower per request: the hostile suite's many calls would spend one member's follow budget.
      const [actor, target] = [await f.fresh(), await f.member()];
      expectOk(await call("POST", `/private/core/follows/${target.memberNo}`, { as: actor }));
      return { as: actor, params: { memberNo: target.memberNo } };
    },
    ...anyMember,
  },
  // Soft block: the caller removes one of their followers; anyone else (not followed by them) gets 404.
  "DELETE /private/core/followers/:memberNo": {
    request: async (f) => {
      // A fresh owner per request: the hostile suite's many calls would spend one member's follow budget.
      const [me, fan] = [await f.fresh(), await f.member()];
      expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: fan }));
      return { as: me, params: { memberNo: fan.memberNo } };
    },
  },
  "GET /private/core/following/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "GET /private/core/followers/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "GET /private/core/friends/status/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), ...anyMember },
  "GET /private/core/friends": { request: () => ({}), ...anyMember },
  "POST /private/core/friends/request": { request: async (f) => ({ body: { targetMemberNo: (await f.member()).memberNo } }), ...anyMember },
  "POST /private/core/friends/accept": {
    request: async (f) => {
      const asker = await f.member();
      expectOk(await call("POST", "/private/core/friends/request", { as: asker, body: { targetMemberNo: f.owner.memberNo } }));
      return { body: { targetMemberNo: asker.memberNo } };
    },
    ...anyMember,
  },
  "POST /private/core/friends/reject": {
    request: async (f) => {
      const asker = await f.member();
      expectOk(await call("POST", "/private/core/friends/request", { as: asker, body: { targetMemberNo: f.owner.memberNo } }));
      return { body: { targetMemberNo: asker.memberNo } };
    },
    ...anyMember,
  },
  "DELETE /private/core/friends/:memberNo": {
    request: async (f) => {
      const [actor, friend] = [await f.fresh(), await f.member()];
      expectOk(await call("POST", "/private/core/friends/request", { as: friend, body: { targetMemberNo: actor.memberNo } }));
      expectOk(await call("POST", "/private/core/friends/accept", { as: actor, body: { targetMemberNo: friend.memberNo } }));
      return { as: actor, params: { memberNo: friend.memberNo } };
    },
    ...anyMember,
  },
  "GET /private/core/favourites": { request: () => ({}), ...anyMember },
  "POST /private/core/favourites": { request: async (f) => ({ body: { targetMemberNo: (await f.member()).memberNo } }), ...anyMember },
  "DELETE /private/core/favourites/:memberNo": {
    request: async (f) => {
      const [actor, target] = [await f.fresh(), await f.member()];
      expectOk(await call("POST", "/private/core/favourites", { as: actor, body: { targetMemberNo: target.memberNo } }));
      return { as: actor, params: { memberNo: target.memberNo } };
    },
    ...anyMember,
  },
  "GET /private/core/blocks/count": { request: () => ({}), ...anyMember },
  "GET /private/core/blocks/count/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), ...anyMember },
  "GET /private/core/blocks": { request: () => ({}), ...anyMember },
  "POST /private/core/blocks": {
    request: async (f) => {
      const m = await f.member();
      return { as: m, body: { targetMemberNo: (await f.member()).memberNo, duration: "forever" } };
    },
    ...anyMember,
  },
  "DELETE /private/core/blocks/:idBlock": {
    request: async (f) => {
      const m = await f.member();
      const target = await f.member();
      expectOk(await call("POST", "/private/core/blocks", { as: m, body: { targetMemberNo: target.memberNo } }));
      return { as: m, params: { idBlock: String(await lastId("select id_block as id from blocks where member_id = ?", m.memberId)) } };
    },
  },
  "GET /private/core/mutes": { request: () => ({}), ...anyMember },
  "POST /private/core/mutes": {
    request: async (f) => {
      const m = await f.member();
      return { as: m, body: { targetMemberNo: (await f.member()).memberNo, duration: "forever" } };
    },
    ...anyMember,
  },
  "DELETE /private/core/mutes/:memberNo": {
    request: async (f) => {
      const m = await f.member();
      const target = await f.member();
      expectOk(await call("POST", "/private/core/mutes", { as: m, body: { targetMemberNo: target.memberNo } }));
      return { as: m, params: { memberNo: target.memberNo } };
    },
    ...anyMember,
  },
  // moderation (README Decisions "Moderation"): operator routes are 404 for everyone else
  "GET /private/core/moderation/:project/role": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "POST /private/core/moderation/:project/appeals": {
    request: async (f) => {
      const { target, idAction } = await suspension(f);
      return { as: target, params: { project: "SMP" }, body: { idAction, text: "It was not me" } };
    },
  },
  "GET /private/core/moderation/:project/queue": { request: async (f) => ({ as: await operator(f), params: { project: "SMP" } }) },
  "POST /private/core/moderation/:project/members/:memberNo/decisions": {
    request: async (f) => ({ as: await operator(f), params: { project: "SMP", memberNo: (await f.member()).memberNo }, body: { action: "suspend", hours: 24 } }),
  },
  "POST /private/core/moderation/:project/appeals/:idAction/decision": {
    request: async (f) => {
      const { op, idAction } = await suspension(f, true);
      return { as: op, params: { project: "SMP", idAction: String(idAction) }, body: { grant: false } };
    },
  },
  "POST /private/core/moderation/:project/operators": {
    request: async (f) => ({ as: await operator(f), params: { project: "SMP" }, body: { memberNo: (await f.fresh()).memberNo } }),
  },
  // README Decisions "Verification": the flame holder and the AI room come from operators only
  "POST /private/core/moderation/:project/flame": {
    request: async (f) => ({ as: await operator(f), params: { project: "SMP" }, body: { memberNo: (await f.member()).memberNo } }),
  },
  "POST /private/core/moderation/:project/members/:memberNo/ai-room": {
    request: async (f) => ({ as: await operator(f), params: { project: "SMP", memberNo: (await f.member()).memberNo } }),
    noBody: true,
  },
  "POST /private/core/reports": {
    request: async (f) => ({ as: await f.member(), body: { targetMemberNo: (await f.member()).memberNo, reason: "spam" } }),
    ...anyMember,
  },

  // ── guestbook (§5/§6: leaving a message needs kycStatus 1)
  "GET /private/core/guestbooks/counts/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "GET /private/core/guestbooks/history/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), ...anyMember },
  "GET /private/core/guestbooks/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "POST /private/core/guestbooks/:memberNo": {
    request: async (f) => ({ as: await f.member({ kyc: 1 }), params: { memberNo: (await f.member()).memberNo }, body: { message: "hello there" } }),
    ...anyMember,
  },
  "DELETE /private/core/guestbooks/:idGuestbook": {
    request: async (f) => {
      const writer = await f.member({ kyc: 1 });
      expectOk(await call("POST", `/private/core/guestbooks/${f.owner.memberNo}`, { as: writer, body: { message: "for the owner" } }));
      return { as: writer, params: { idGuestbook: String(await lastId("select id_guestbook as id from guestbook_entries where author_member_id = ?", writer.memberId)) } };
    },
  },
  "POST /private/core/leave-message": {
    request: async (f) => ({ as: await f.member({ kyc: 1 }), body: { code: (await f.member()).memberNo, text: "left a message" } }),
    ...anyMember,
  },

  // ── notifications tab, settings, door-bell, actions
  "GET /private/core/notifications/unread-count": { request: () => ({}), ...anyMember },
  "GET /private/core/posting-status": { request: () => ({}), ...anyMember },
  "GET /private/core/notifications": { request: () => ({}), ...anyMember },
  "POST /private/core/notifications/read": { request: () => ({ body: { ids: [1] } }), ...anyMember },
  "DELETE /private/core/notifications": { request: () => ({}), ...anyMember },
  "GET /private/core/social-settings": { request: () => ({}), ...anyMember },
  "PUT /private/core/social-settings": { request: () => ({ body: { emailAlerts: true } }), ...anyMember },
  "POST /private/core/door-bell/check": { request: () => ({}), noBody: true, ...anyMember },
  "GET /private/core/actions/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), ...anyMember },

  // ── geolocation
  "GET /private/core/geolocation/:project/nearby": {
    request: async (f) => {
      const m = await f.member();
      expectOk(await call("PUT", `/private/core/geolocation/${m.memberId}`, { as: m, body: { latitude: 35.68, longitude: 139.76 } }));
      return { as: m, params: { project: "SMP" } };
    },
    ...tenantWide,
  },
  "GET /private/core/geolocation/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "PUT /private/core/geolocation/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId }, body: { latitude: 35.68, longitude: 139.76 } }) },
  "PUT /private/core/geolocation/:project/:memberId": {
    request: (f) => ({ params: { project: "SMP", memberId: f.owner.memberId }, body: { latitude: 35.68, longitude: 139.76 } }),
  },
  "DELETE /private/core/geolocation/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },

  // ── flame and basement (kycStatus 1)
  "GET /private/core/basement": { request: async (f) => ({ as: await f.member({ kyc: 1 }) }), other: "allowed", foreign: "allowed" },
  "GET /private/core/flame/:project/last": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "POST /private/core/flame/:project/delivery": {
    request: async (f) => {
      const holder = await f.member({ kyc: 1 });
      await giveFlame(holder);
      return { as: holder, params: { project: "SMP" }, body: { targetMemberNo: (await f.member({ kyc: 1 })).memberNo } };
    },
    ...tenantWide,
  },
  "POST /private/core/flame/:project/approve": {
    request: async (f) => {
      const holder = await f.member({ kyc: 1 });
      await giveFlame(holder);
      return { as: holder, params: { project: "SMP" }, body: { targetMemberNo: (await f.member()).memberNo } };
    },
    ...tenantWide,
  },

  "GET /private/core/flame/:project/verification": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "POST /private/core/flame/:project/verification": { request: async (f) => ({ as: await f.member(), params: { project: "SMP" } }), noBody: true, ...tenantWide },
  "GET /private/core/flame/:project/requests": {
    request: async (f) => {
      const holder = await f.member({ kyc: 1 });
      await giveFlame(holder);
      return { as: holder, params: { project: "SMP" } };
    },
  },

  // ── market, sub-members and hierarchy (worker/features/market/market.routes.ts)
  "POST /private/sns/sub-members/:project/join": {
    request: async (f) => {
      const master = await f.member();
      await env.DB.prepare("update profiles set multi_gender = 1 where member_id = ?").bind(master.memberId).run();
      const slave = await f.member();
      await env.DB.prepare("update profiles set multi_gender = 3 where member_id = ?").bind(slave.memberId).run();
      return { as: slave, params: { project: "SMP" }, body: { masterMemberNo: master.memberNo } };
    },
    ...tenantWide,
  },
  "POST /private/sns/sub-members/:project/free": {
    request: async (f) => {
      const { master, slave } = await ownership(f);
      return { as: master, params: { project: "SMP" }, body: { simpleCode: slave.memberNo } };
    },
    ...tenantWide,
  },
  "GET /private/sns/sub-members/:project/:memberNo": { request: (f) => ({ params: { project: "SMP", memberNo: f.owner.memberNo } }), ...tenantWide },
  "POST /private/sns/game/market/slave": {
    request: async (f) => {
      const { master, slave } = await ownership(f);
      return { as: master, body: { simpleCode: slave.memberNo } };
    },
  },
  "GET /private/sns/hierarchy/:project/:memberNo/history": { request: (f) => ({ params: { project: "SMP", memberNo: f.owner.memberNo } }), ...tenantWide },
  "GET /private/sns/hierarchy/:project/:memberNo": { request: (f) => ({ params: { project: "SMP", memberNo: f.owner.memberNo } }), ...tenantWide },
  "GET /private/sns/market/:project/biddings": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "GET /private/sns/bidding-loops/:idBiddingLoop": {
    request: async (f) => {
      const { slave } = await ownership(f, true);
      const bidder = await f.member({ gender: 2 });
      expectOk(await call("POST", "/private/sns/bidding-loops", { as: bidder, body: { targetMemberNo: slave.memberNo } }));
      return { as: bidder, params: { idBiddingLoop: String(await lastId("select id_bidding_loop as id from bidding_loops where bidder_member_id = ?", bidder.memberId)) } };
    },
    ...anyMember,
  },
  "POST /private/sns/bidding-loops": {
    request: async (f) => {
      const { slave } = await ownership(f, true);
      return { as: await f.member({ gender: 2 }), body: { targetMemberNo: slave.memberNo } };
    },
    ...anyMember,
  },
  "GET /private/sns/search/popular-keyword/:project": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "GET /private/sns/search/:project": { request: () => ({ params: { project: "SMP" }, query: { keyword: "nick" } }), ...tenantWide },

  // ── coins and wallet (worker/features/coins/coins.routes.ts)
  "GET /private/core/pvs/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "POST /private/core/wallet/transfer/:memberId": {
    request: async (f) => {
      const payer = await f.member();
      await env.DB.prepare("insert into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values ('SMP', ?, 'mcoin', 5, 'fixture', ?, ?)")
        .bind(payer.memberId, `fixture-${payer.memberId}`, Date.now())
        .run();
      const otp = await issueOtp(payer);
      return { as: payer, params: { memberId: payer.memberId }, body: { simpleCode: (await f.member()).memberNo, amount: 100, otp, requestId: `fixture-${payer.memberNo}` } };
    },
  },
  "GET /private/core/wallet/transfers/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },

  // ── home, feedback (worker/features/home, feedback)
  "GET /private/core/home/:project": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "POST /private/cs/feedback/:project": { request: async (f) => ({ as: await f.member(), params: { project: "SMP" }, body: { message: "A thought for the box" } }), ...tenantWide },

  // ── tasks and missions (worker/features/tasks/tasks.routes.ts)
  "GET /private/sns/tasks": { request: () => ({}), ...anyMember },
  "POST /private/sns/tasks": { request: async (f) => ({ as: await f.member(), body: { subject: "Kneel", description: "Ten minutes, eyes down." } }), ...anyMember },
  "POST /private/sns/tasks/:idTask/take-up": {
    request: async (f) => ({ as: await f.member(), params: { idTask: String(await task(await f.member())) } }),
    noBody: true,
    ...anyMember,
  },
  "GET /private/sns/missions/mine": { request: () => ({}), ...anyMember },
  "GET /private/sns/missions/review": { request: () => ({}), ...anyMember },
  "GET /private/sns/missions/:idMission": {
    request: async (f) => {
      const { taker, idMission } = await mission(f);
      return { as: taker, params: { idMission: String(idMission) } };
    },
  },
  "PUT /private/sns/missions": {
    request: async (f) => {
      const { taker, idMission } = await mission(f);
      return { as: taker, body: { id: idMission, description: "Done as asked.", remark: "" } };
    },
  },
  "POST /private/sns/missions/cover": {
    request: async (f) => {
      const { taker, idMission } = await mission(f);
      return {
        as: taker,
        form: () => {
          const data = new FormData();
          data.set("id", String(idMission));
          data.set("file", new File([pngBytes() as BlobPart], "cover.png", { type: "image/png" }));
          return data;
        },
      };
    },
  },
  "POST /private/sns/missions/submit": {
    request: async (f) => {
      const { taker, idMission } = await mission(f);
      return { as: taker, body: { id: idMission } };
    },
  },
  "POST /private/sns/missions/confirm": {
    request: async (f) => {
      const { creator, taker, idMission } = await mission(f);
      expectOk(await call("POST", "/private/sns/missions/submit", { as: taker, body: { id: idMission } }));
      return { as: creator, body: { id: idMission, remark: "Well done" } };
    },
  },

  // ── albums (worker/features/albums/albums.routes.ts)
  "POST /private/sns/albums": { request: async (f) => ({ as: await f.member(), body: { title: "Summer", secretKey: "" } }), ...anyMember },
  "GET /private/sns/albums": { request: () => ({}), ...anyMember },
  // Another member sees a keyed album as locked, without photos (the read-access suite checks the photos never show).
  "GET /private/sns/albums/:idAlbum": { request: async (f) => ({ params: { idAlbum: String(await keyedAlbum(f.owner)) } }), other: "allowed" },
  // Another member who holds the key gets in (that is what a key is for); another tenant's album is not found.
  "POST /private/sns/albums/:idAlbum/unlock": {
    request: async (f) => ({ params: { idAlbum: String(await keyedAlbum(f.owner)) }, body: { secretKey: "a secret key" } }),
    other: "allowed",
  },
  "DELETE /private/sns/albums/:idAlbum": { request: async (f) => ({ params: { idAlbum: String(await keyedAlbum(f.owner)) } }) },
  "GET /private/sns/member-albums/:memberNo": { request: (f) => ({ params: { memberNo: f.owner.memberNo } }), ...anyMember },
  "POST /private/sns/albums/:idAlbum/files": {
    request: async (f) => {
      const m = await f.member();
      return {
      as: m,
      params: { idAlbum: String(await keyedAlbum(m)) },
      form: () => {
        const data = new FormData();
        data.set("file", new File([pngBytes() as BlobPart], "p.png", { type: "image/png" }));
        return data;
      },
      };
    },
  },
  "POST /private/sns/photos": {
    request: async (f) => {
      const m = await f.member();
      const idAlbum = await keyedAlbum(m);
      return { as: m, body: { idAlbum, filePath: await albumUpload(m, idAlbum), description: "" } };
    },
  },
  "DELETE /private/sns/photos/:idPhoto": {
    request: async (f) => {
      const m = await f.member();
      const idAlbum = await keyedAlbum(m);
      const filePath = await albumUpload(m, idAlbum);
      expectOk(await call("POST", "/private/sns/photos", { as: m, body: { idAlbum, filePath } }));
      return { as: m, params: { idPhoto: String(await lastId("select id_photo as id from album_photos where member_id = ?", m.memberId)) } };
    },
  },
  "GET /private/sns/albums/:idAlbum/grants": { request: async (f) => ({ params: { idAlbum: String(await keyedAlbum(f.owner)) } }) },
  "POST /private/sns/albums/:idAlbum/grants": {
    request: async (f) => ({ params: { idAlbum: String(await keyedAlbum(f.owner)) }, body: { memberNo: (await f.member()).memberNo } }),
  },
  "DELETE /private/sns/albums/:idAlbum/grants/:memberNo": {
    request: async (f) => {
      const idAlbum = await keyedAlbum(f.owner);
      const grantee = await f.member();
      expectOk(await call("POST", `/private/sns/albums/${idAlbum}/grants`, { as: f.owner, body: { memberNo: grantee.memberNo } }));
      return { params: { idAlbum: String(idAlbum), memberNo: grantee.memberNo } };
    },
  },

  // ── profiles (worker/features/profiles/profiles.routes.ts)
  "GET /private/core/profiles/pick-for-you": { request: () => ({}), ...anyMember },
  "PUT /private/core/profiles/unqualified/:idProfile": { request: async (f) => unqualified(f), noBody: true, ...anyMember },
  "PATCH /private/core/profiles/unqualified/:idProfile": { request: async (f) => unqualified(f), noBody: true, ...anyMember },
  "POST /private/core/profiles/unqualified/:idProfile": { request: async (f) => unqualified(f), noBody: true, ...anyMember },
  // Another member gets the public subset (no private field: the leak check proves it); another tenant 404.
  "GET /private/core/profiles/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }), other: "allowed" },
  "PATCH /private/core/profiles/:memberId": {
    request: (f) => ({ params: { memberId: f.owner.memberId }, body: { introduction: "Hello from the matrix, a perfectly ordinary introduction." } }),
  },
  "GET /private/sns/visitors/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "POST /private/sns/characters/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId }, body: { idCharacter: 1 } }) },
  "DELETE /private/sns/characters/:memberId/:idCharacter": {
    request: async (f) => {
      expectOk(await call("POST", `/private/sns/characters/${f.owner.memberId}`, { as: f.owner, body: { idCharacter: 2 } }));
      return { params: { memberId: f.owner.memberId, idCharacter: "2" } };
    },
  },
  ...discoveryRoutes("private"),

  // ── media (worker/features/media/media.routes.ts)
  "POST /private/core/files/:project/:memberId": {
    request: async (f) => {
      const m = await f.member();
      return { as: m, params: { project: "SMP", memberId: m.memberId }, form: photoForm };
    },
  },
  "POST /private/core/files/:memberId": {
    request: async (f) => {
      const m = await f.member();
      return { as: m, params: { memberId: m.memberId }, form: photoForm };
    },
  },
  "POST /api/v3/storage": { request: async (f) => ({ as: await f.member(), form: photoForm }), other: "allowed", foreign: "allowed" },
  "GET /private/core/banners/review/:project": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "GET /private/core/banners/users/:id": { request: (f) => ({ params: { id: f.owner.memberNo } }), ...anyMember },
  "GET /private/core/banners/:project": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "PATCH /private/core/banners/size/:id": {
    request: async (f) => {
      const m = await f.member();
      return { as: m, params: { id: String(await banner(m)) }, body: { width: 300, height: 200 } };
    },
  },
  "POST /private/core/banners/:memberId": {
    request: async (f) => {
      const m = await f.member();
      const upload = expectOk(await call("POST", `/private/core/files/SMP/${m.memberId}`, { as: m, body: photoForm() }));
      return { as: m, params: { memberId: m.memberId }, body: { image: upload.url, pickable: true, width: upload.width, height: upload.height } };
    },
  },
  "DELETE /private/core/banners/:id/:memberId": {
    request: async (f) => {
      const m = await f.member();
      return { as: m, params: { id: String(await banner(m)), memberId: m.memberId } };
    },
  },
  // §9 reveal of a blurred photo: any member of the tenant gets the original; another tenant's session gets 404.
  "POST /private/core/banners/:id/reveal": { request: async (f) => ({ params: { id: String(await banner(f.owner)) } }), noBody: true, ...tenantWide },
  "POST /private/sns/banner-ratings": {
    request: async (f) => ({ as: await f.member(), body: { idBanner: await banner(await f.member()), rating: 4 } }),
    ...anyMember,
  },

  // ── chat (worker/features/chat/chat.routes.ts)
  "GET /private/sns/chatroom/unread-counts": { request: () => ({}), ...anyMember },
  "GET /private/sns/chatroom/list": { request: () => ({}), ...anyMember },
  "GET /private/sns/chatroom/messages/:id": { request: async (f) => ({ params: { id: String(await chatMessage(f.owner)) } }), other: "allowed" },
  "POST /private/sns/chatroom/messages/threads/:memberId": {
    request: async (f) => ({ params: { memberId: f.owner.memberId }, body: { idChatroomMessage: await chatMessage(await f.member()), message: "a reply", isPrivate: false } }),
  },
  "PUT /private/sns/chatroom/messages/:memberId/:id/react": {
    request: async (f) => ({ params: { memberId: f.owner.memberId, id: String(await chatMessage(await f.member())) }, body: { replyPayload: { type: "emoji", reactEmoji: "🔥" } } }),
  },
  "PUT /private/sns/chatroom/messages/:memberId/:id/accept-image": {
    request: async (f) => {
      const { recipient, idChatroomMessage } = await strangerImage(f);
      return { as: recipient, params: { memberId: recipient.memberId, id: String(idChatroomMessage) } };
    },
    noBody: true,
  },
  "PUT /private/sns/chatroom/messages/:memberId/:id": {
    request: async (f) => ({ params: { memberId: f.owner.memberId, id: String(await chatMessage(f.owner)) }, body: { message: "edited words" } }),
  },
  "DELETE /private/sns/chatroom/messages/:memberId/:id": {
    request: async (f) => ({ params: { memberId: f.owner.memberId, id: String(await chatMessage(f.owner)) } }),
  },
  "GET /private/sns/chatroom/:id/messages": { request: () => ({ params: { id: PUBLIC_CHATROOM_ID } }), ...anyMember },
  "GET /private/sns/chatroom/:id/message/set": { request: () => ({ params: { id: PUBLIC_CHATROOM_ID } }), ...anyMember },
  "GET /private/sns/chatroom/:id/last-message": { request: () => ({ params: { id: PUBLIC_CHATROOM_ID } }), ...anyMember },
  "PUT /private/sns/chatroom/:id/read": { request: () => ({ params: { id: PUBLIC_CHATROOM_ID }, body: {} }), ...anyMember },
  "POST /private/sns/chatrooms/:id/messages/:memberId": {
    request: (f) => ({ params: { id: PUBLIC_CHATROOM_ID, memberId: f.owner.memberId }, body: { message: "hello room", requestId: `matrix-${f.owner.memberNo}-${++sequence}` } }),
    freeFields: ["payload"],
  },
  "GET /private/sns/chatroom-member/count": { request: () => ({ query: { chatroomId: PUBLIC_CHATROOM_ID } }), ...anyMember },
  "GET /private/sns/connections": { request: () => ({}), ...anyMember },
  "GET /private/sns/connections/:idConnection": { request: async (f) => ({ params: { idConnection: String(await connection(f.owner, await f.member())) } }) },
  "POST /private/sns/connections": { request: async (f) => ({ as: await f.member(), body: { memberNo: (await f.member()).memberNo } }), ...anyMember },
  "DELETE /private/sns/connections/:idConnection": { request: async (f) => ({ params: { idConnection: String(await connection(f.owner, await f.member())) } }) },
  "GET /private/sns/message-requests": { request: () => ({}), ...anyMember },
  "PUT /private/sns/message-requests/:idRequest": {
    request: async (f) => {
      const { recipient, idRequest } = await messageRequest(f);
      return { as: recipient, params: { idRequest: String(idRequest) }, body: { decision: "accept" } };
    },
  },
  "GET /private/sns/chat-settings": { request: () => ({}), ...anyMember },
  "PUT /private/sns/chat-settings": { request: async (f) => ({ as: await f.member(), body: { acceptFrom: "everyone" } }), ...anyMember },
  "GET /private/sns/public-keys/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), ...anyMember },
  "GET /private/sns/message-permission/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), ...anyMember },
  "GET /private/sns/presence/:project": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "PUT /private/sns/notifications/source/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId }, body: { sourceKey: "https://push.example/endpoint" } }) },
  "GET /private/sns/notifications/count": { request: () => ({ query: { source: "WEB_PUSH" } }), ...anyMember },
  "DELETE /private/sns/notifications/source/:memberId": {
    request: async (f) => {
      const m = await f.fresh();
      const subscription = { endpoint: `https://push.example/send/${m.memberId}`, keys: TEST_PUSH_KEYS };
      expectOk(await call("PUT", `/private/sns/notifications/source/${m.memberId}`, { as: m, body: { sourceKey: subscription.endpoint, subscription } }));
      return { as: m, params: { memberId: m.memberId }, body: { endpoint: subscription.endpoint } };
    },
  },
  "GET /private/sns/notifications/vapid-key": { request: () => ({}), ...anyMember },
  // Quiet hours for push: the owner's own, like the source update above.
  "GET /private/sns/notifications/quiet-hours/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "PUT /private/sns/notifications/quiet-hours/:memberId": {
    request: (f) => ({ params: { memberId: f.owner.memberId }, body: { enabled: true, startHour: 22, endHour: 7, timeZone: "Europe/Berlin" } }),
  },
  // Stranger media stays blurred: the owner's own setting; a reveal of any visible member's avatar.
  "GET /private/core/stranger-media/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "PUT /private/core/stranger-media/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId }, body: { strangerMedia: "notFollowed" } }) },
  "POST /private/core/stranger-media/reveal/:memberNo": { request: async (f) => ({ params: { memberNo: (await f.member()).memberNo } }), noBody: true, ...tenantWide },
  "POST /private/core/reminders": {
    request: async (f) => ({ body: { idChatroomMessage: await chatMessage(await f.member()), title: "Remember", description: "", remindAt: new Date(Date.now() + 3_600_000).toISOString() } }),
    ...anyMember,
  },
  "GET /private/core/reminders": { request: () => ({}), ...anyMember },
  // Approve followers: the owner's setting; requests are answered by their target, withdrawn by their requester.
  "GET /private/core/follow-approval/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "PUT /private/core/follow-approval/:memberId": {
    // A fresh member: the shared owner's profile must stay open to the other suites' viewers.
    request: async (f) => {
      const me = await f.fresh();
      return { as: me, params: { memberId: me.memberId }, body: { approveFollowers: true } };
    },
  },
  "GET /private/core/follow-requests": { request: () => ({}), ...anyMember },
  "POST /private/core/follow-requests/:memberNo/accept": {
    request: async (f) => {
      const [me, asker] = [await f.member(), await f.member()];
      await env.DB.prepare("update profiles set approve_followers = 1 where member_id = ?").bind(me.memberId).run();
      expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: asker }));
      return { as: me, params: { memberNo: asker.memberNo } };
    },
    noBody: true,
  },
  "POST /private/core/follow-requests/:memberNo/decline": {
    request: async (f) => {
      const [me, asker] = [await f.member(), await f.member()];
      await env.DB.prepare("update profiles set approve_followers = 1 where member_id = ?").bind(me.memberId).run();
      expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: asker }));
      return { as: me, params: { memberNo: asker.memberNo } };
    },
    noBody: true,
  },
  "DELETE /private/core/follow-requests/:memberNo": {
    request: async (f) => {
      const [asker, target] = [await f.fresh(), await f.member()];
      await env.DB.prepare("update profiles set approve_followers = 1 where member_id = ?").bind(target.memberId).run();
      expectOk(await call("POST", `/private/core/follows/${target.memberNo}`, { as: asker }));
      return { as: asker, params: { memberNo: target.memberNo } };
    },
  },
  // Who sees my connections: the owner's own setting (requireSelf), like quiet hours above.
  "GET /private/core/connections-visibility/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  // A fresh member: the shared owner's connections stay open to the other cases (hierarchy, sub-members).
  "PUT /private/core/connections-visibility/:memberId": {
    request: async (f) => {
      const m = await f.fresh();
      return { as: m, params: { memberId: m.memberId }, body: { connectionsVisibility: "friends" } };
    },
  },
  // Requests tray controls and filters: the caller's own filters, tray and notices (no member id in the path).
  "GET /private/sns/requests-filters": { request: () => ({}), ...anyMember },
  "PUT /private/sns/requests-filters": {
    request: () => ({ body: { newerThanDays: 7, noAvatar: true, notFollowed: false, inRequests: true, inNotifications: true } }),
    ...anyMember,
  },
  "GET /private/sns/message-requests/filtered": { request: () => ({}), ...anyMember },
  "GET /private/core/notifications/filtered": { request: () => ({}), ...anyMember },
  "POST /private/sns/message-requests/:idRequest/decline-block": {
    request: async (f) => {
      const { recipient, idRequest } = await messageRequest(f);
      return { as: recipient, params: { idRequest: String(idRequest) } };
    },
    noBody: true,
  },
  "POST /private/sns/message-requests/:idRequest/decline-all": {
    request: async (f) => {
      const { recipient, idRequest } = await messageRequest(f);
      return { as: recipient, params: { idRequest: String(idRequest) } };
    },
    noBody: true,
  },
  // Muted words (README Decisions "Muted words"): the caller's own list, like mutes; another's word is not found.
  "GET /private/core/muted-words": { request: () => ({}), ...anyMember },
  "POST /private/core/muted-words": { request: () => ({ body: { phrase: `matrix word ${++sequence}`, duration: "forever" } }), ...anyMember },
  "DELETE /private/core/muted-words/:idMutedWord": {
    request: async (f) => {
      const m = await f.member();
      const word = expectOk(await call("POST", "/private/core/muted-words", { as: m, body: { phrase: "to remove" } }));
      return { as: m, params: { idMutedWord: String(word.idMutedWord) } };
    },
  },
  // "Show anyway" for one guestbook entry: its owner or author only.
  "GET /private/core/guestbooks/entry/:idGuestbook": {
    request: async (f) => {
      const writer = await f.member({ kyc: 1 });
      expectOk(await call("POST", `/private/core/guestbooks/${f.owner.memberNo}`, { as: writer, body: { message: "shown anyway" } }));
      return { params: { idGuestbook: String(await lastId("select id_guestbook as id from guestbook_entries where author_member_id = ?", writer.memberId)) } };
    },
  },
  // End-to-end devices: every route acts on the session's own devices (another member registers or lists their own;
  // removing someone else's device id is not found).
  "GET /private/sns/e2e-devices": { request: () => ({}), ...anyMember },
  "PUT /private/sns/e2e-devices/:deviceId": { request: async () => ({ params: { deviceId: "matrixDevice0000000001" }, body: await testDeviceKeys() }), ...anyMember },
  "DELETE /private/sns/e2e-devices/:deviceId": {
    request: async (f) => {
      const as = await f.fresh();
      const deviceId = `matrix${crypto.randomUUID().replace(/-/g, "")}`.slice(0, 22);
      expectOk(await call("PUT", `/private/sns/e2e-devices/${deviceId}`, { as, body: await testDeviceKeys() }));
      return { as, params: { deviceId } };
    },
  },
  // Collectibles and the daily lottery (README Decisions "Collectibles and the daily lottery"): tenant-wide reads; writes
  // act on the caller's own photo or edition (someone else's is not found); buying and entering are any member's own act.
  "GET /private/sns/collectibles/:project/gas": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "GET /private/sns/collectibles/:project/mine": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "GET /private/sns/collectibles/:project/listed": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "GET /private/sns/collectibles/:project/history": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "GET /private/sns/collectibles/:project/editions/:idEdition": {
    request: async (f) => ({ params: { project: "SMP", idEdition: String((await matrixEdition(f)).idEdition) } }),
    ...tenantWide,
  },
  "POST /private/sns/collectibles/:project/mint": {
    request: async (f) => {
      const as = await f.fresh();
      await matrixCoins(as, 5);
      return { as, params: { project: "SMP" }, body: { idBanner: await matrixPhoto(as), editionSize: 2, requestId: `matrix-mint-${++sequence}` } };
    },
  },
  "PUT /private/sns/collectibles/:project/editions/:idEdition/listing": {
    request: async (f) => {
      const { as, idEdition } = await matrixEdition(f);
      return { as, params: { project: "SMP", idEdition: String(idEdition) }, body: { amount: 200 } };
    },
  },
  "DELETE /private/sns/collectibles/:project/editions/:idEdition/listing": {
    request: async (f) => {
      const { as, idEdition } = await matrixEdition(f);
      return { as, params: { project: "SMP", idEdition: String(idEdition) } };
    },
  },
  "POST /private/sns/collectibles/:project/editions/:idEdition/buy": {
    request: async (f) => {
      const { idEdition } = await matrixEdition(f);
      const as = await f.fresh();
      await matrixCoins(as, 5);
      return { as, params: { project: "SMP", idEdition: String(idEdition) }, body: { amount: 100, requestId: `matrix-buy-${++sequence}` } };
    },
    other: "allowed",
  },
  "GET /private/sns/lottery/:project": { request: () => ({ params: { project: "SMP" } }), ...tenantWide },
  "POST /private/sns/lottery/:project/entries": { request: async (f) => ({ as: await lotteryEntrant(await f.fresh()), params: { project: "SMP" }, body: {} }), other: "allowed", noBody: true },
  "GET /private/sns/lottery/:project/draws/:drawDate": {
    request: async (f) => {
      expectOk(await call("GET", "/private/sns/lottery/SMP", { as: f.owner }));
      return { params: { project: "SMP", drawDate: new Date().toISOString().slice(0, 10) } };
    },
    ...tenantWide,
  },
  // Card payments and card binding (README Decisions "Card payments"): the member's own id in the path; the provider
  // is the local fake (tests/support/fake-stripe.ts); another member's payment or card is not found.
  "GET /private/core/card/packages/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "POST /private/core/card/checkout/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId }, body: { idPackage: "mcoin-10" } }) },
  "GET /private/core/card/payments/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId }, query: { pageSize: "5" } }) },
  "GET /private/core/card/payments/:memberId/:idPayment": {
    request: async (f) => {
      const started = expectOk(await call("POST", `/private/core/card/checkout/${f.owner.memberId}`, { as: f.owner, body: { idPackage: "mcoin-10" } }));
      return { params: { memberId: f.owner.memberId, idPayment: String(started.idPayment) } };
    },
  },
  "POST /private/core/card/binding/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }), noBody: true },
  "GET /private/core/card/binding/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "DELETE /private/core/card/binding/:memberId/:idCard": {
    request: async (f) => {
      const as = await f.fresh();
      const { url } = expectOk(await call("POST", `/private/core/card/binding/${as.memberId}`, { as, body: {} }));
      fakeStripe.complete(new URL(url).pathname.split("/").pop()!);
      const [card] = expectOk(await call("GET", `/private/core/card/binding/${as.memberId}`, { as }));
      return { as, params: { memberId: as.memberId, idCard: card.idCard } };
    },
  },
  // Linking a second device (README Decisions "Linking a second device"): only the session's own devices; another
  // member's or tenant's device id is not among theirs (404).
  "GET /private/sns/e2e-links": { request: () => ({}), ...anyMember },
  "PUT /private/sns/e2e-links/:deviceId": { request: async (f) => ({ ...(await ownDevice(f)), body: { tag: `${"A".repeat(43)}=` } }) },
  "DELETE /private/sns/e2e-links/:deviceId": { request: ownDevice },
  "GET /private/sns/e2e-devices/:deviceId/message-keys": { request: ownDevice },
  "GET /private/sns/e2e-devices/:deviceId/linked-keys": { request: ownDevice },
  "POST /private/sns/e2e-devices/:deviceId/linked-keys": {
    request: async (f) => ({ ...(await ownDevice(f)), body: { keys: [{ idChatroomMessage: 1, wrappedKey: "d3JhcA==" }] } }),
  },
  "GET /private/sns/e2e-devices/:deviceId/thread-keys": { request: ownDevice },
  "GET /private/sns/e2e-devices/:deviceId/linked-thread-keys": { request: ownDevice },
  "POST /private/sns/e2e-devices/:deviceId/linked-thread-keys": {
    request: async (f) => ({ ...(await ownDevice(f)), body: { keys: [{ idChatMessageThread: 1, wrappedKey: "d3JhcA==" }] } }),
  },
  // DNA pairing and creator profiles (README Decisions "DNA pairing and creator profiles"): readings and creator
  // profiles of the tenant's members; another tenant's session is refused (404); only the owner writes their own.
  "GET /private/family/dna/:project/:simpleCode": { request: (f) => ({ params: { project: "SMP", simpleCode: f.other.memberNo } }), ...tenantWide },
  "GET /private/core/creator-profiles/:project/:simpleCode": { request: (f) => ({ params: { project: "SMP", simpleCode: f.owner.memberNo } }), ...tenantWide },
  "PUT /private/core/creator-profiles/:memberId": {
    request: (f) => ({
      params: { memberId: f.owner.memberId },
      body: { introduction: "I make rope.", websiteUrl: "https://example.com", company: "Knots", title: "Rigger", location: "Tokyo", links: [{ url: "https://example.com/shop", title: "Shop", logo: "" }] },
    }),
  },
  // LINE bind and unbind: the caller's own binding only (another member or tenant: 403). Not configured here, so
  // binding answers 404 lineNotConfigured and unbinding an unbound account 404 lineNotBound.
  "GET /private/core/members/line/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }) },
  "POST /private/core/members/line/:memberId/authorize": {
    request: (f) => ({ params: { memberId: f.owner.memberId }, body: { redirectUrl: "http://velvet.test/smp/line-callback" } }),
    status: 404,
  },
  "POST /private/core/members/line/:memberId": {
    request: (f) => ({ params: { memberId: f.owner.memberId }, body: { code: "a-code", state: "s".repeat(43), redirectUrl: "http://velvet.test/smp/line-callback" } }),
    status: 404,
  },
  "DELETE /private/core/members/line/:memberId": { request: (f) => ({ params: { memberId: f.owner.memberId } }), status: 404 },
  // The reveal of one public-room image (room-image-blur.ts): any member who may see the message; another tenant: 404.
  "POST /private/sns/chatroom/messages/:id/reveal-image": {
    request: async (f) => {
      const author = await f.member({ kyc: 1 });
      const src = `/media/SMP/${author.memberNo}/photo/matrix-${++sequence}.jpg`;
      const sent = expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${author.memberId}`, { as: author, body: { message: "", payload: { type: "img", src }, requestId: `reveal-${author.memberNo}-${sequence}` } }));
      return { params: { id: String(sent.idChatroomMessage) } };
    },
    noBody: true,
    ...tenantWide,
  },
};

/** M coins straight into the ledger (a balance to spend). */
async function matrixCoins(m: Member, coins: number) {
  await env.DB.prepare("insert into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values (?, ?, 'mcoin', ?, 'fixture', ?, ?)")
    .bind(m.projectCode, m.memberId, coins, `fixture-${m.memberId}-${++sequence}`, Date.now())
    .run();
}
/** A photo row as the banner API stores one. */
async function matrixPhoto(m: Member) {
  const row = await env.DB.prepare(
    "insert into banners (project_code, member_id, member_no, image, pickable, width, height, blur_image, created_at) values (?, ?, ?, ?, 1, 48, 48, ?, ?) returning id_banner as id",
  )
    .bind(m.projectCode, m.memberId, m.memberNo, `/media/${m.projectCode}/${m.memberNo}/photo/matrix-${++sequence}.png`, `/media/${m.projectCode}/${m.memberNo}/blur/matrix-${sequence}.png`, Date.now())
    .first<{ id: number }>();
  return row!.id;
}
/** A fresh member's minted edition No. 1, listed for 1 M coin. */
async function matrixEdition(f: Fixture) {
  const as = await f.fresh();
  await matrixCoins(as, 5);
  const idBanner = await matrixPhoto(as);
  const minted = expectOk(await call("POST", "/private/sns/collectibles/SMP/mint", { as, body: { idBanner, editionSize: 1, requestId: `matrix-edition-${++sequence}` } }));
  const idEdition = minted.editions[0].idEdition as number;
  expectOk(await call("PUT", `/private/sns/collectibles/SMP/editions/${idEdition}/listing`, { as, body: { amount: 100 } }));
  return { as, idEdition };
}

/** A fresh member with one registered end-to-end device (the linking routes act on it). */
async function ownDevice(f: Fixture): Promise<RequestSpec> {
  const as = await f.fresh();
  const deviceId = `matrix${crypto.randomUUID().replace(/-/g, "")}`.slice(0, 22);
  expectOk(await call("PUT", `/private/sns/e2e-devices/${deviceId}`, { as, body: await testDeviceKeys() }));
  return { as, params: { deviceId } };
}


// ── enumeration ──────────────────────────────────────────────────────────────────────────────

export type MountedRoute = { method: string; path: string; key: string; visibility: "public" | "private" };

/**
 * Every concrete API route of the worker app (method + pattern), without middleware and catch-alls.
 * `/api/v7/<public|private>/…` is keyed without its prefix (v6 mounts the same handlers, checked by the
 * matrix); other API doors (e.g. `/api/v3/storage`) keep their full path and are private when the
 * private table lists them.
 */
export function mountedRoutes(app: Hono<any, any, any>): MountedRoute[] {
  const seen = new Map<string, MountedRoute>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    let path = route.path.replace(/\/+$/, "") || "/";
    if (!path.startsWith("/api/") || path.startsWith("/api/v6/")) continue;
    if (path.startsWith("/api/v7/")) path = path.slice("/api/v7".length);
    if (path.includes("*")) continue;
    const key = `${route.method} ${path}`;
    const visibility = path.startsWith("/private/") || (!path.startsWith("/public/") && key in privateRoutes) ? "private" : "public";
    if (!seen.has(key)) seen.set(key, { method: route.method, path, key, visibility });
  }
  return [...seen.values()];
}

/** The same, for one API version prefix (the matrix checks v6 and v7 mount the same routes). */
export function versionRoutes(app: Hono<any, any, any>, version: 6 | 7) {
  const prefix = `/api/v${version}/`;
  return new Set(app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith(prefix)).map((r) => `${r.method} ${r.path.slice(prefix.length - 1)}`));
}

/** Fills `:name` / `:name{regex}` segments; values are URL-encoded unless `raw`. */
export function fillPath(pattern: string, params: Record<string, string> = {}, raw = false) {
  return pattern.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${pattern}`);
    return raw ? value : encodeURIComponent(value);
  });
}

export const paramNames = (pattern: string) => [...pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

/** Sends a spec to a route as `who` (null = anonymous). Paths outside `/api/v7` are sent as they are. */
export async function send(
  route: Pick<MountedRoute, "method" | "path">,
  spec: RequestSpec,
  who: Member | null,
  overrides: { params?: Record<string, string>; body?: unknown; rawBody?: string; rawParams?: boolean; headers?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<Reply> {
  const params = { ...spec.params, ...overrides.params };
  let path = fillPath(route.path, params, overrides.rawParams);
  const query = overrides.query ?? spec.query;
  if (query && Object.keys(query).length) path += `?${new URLSearchParams(query)}`;
  let body: unknown = overrides.rawBody ?? ("body" in overrides ? overrides.body : spec.body);
  if (body === undefined && spec.form) body = spec.form();
  if (body === undefined && route.method !== "GET" && route.method !== "DELETE" && route.method !== "HEAD") body = {};
  if (!path.startsWith("/api/")) return call(route.method, path, { as: who, body, headers: overrides.headers });
  const headers: Record<string, string> = { ...(who?.headers ?? {}), ...(overrides.headers ?? {}) };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (typeof body === "string") payload = body;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined && !(body instanceof FormData)) headers["Content-Type"] ??= "application/json";
  const response = await fetchWorker(path, { method: route.method, headers, body: payload });
  const text = await response.text();
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { notJson: text };
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** Fields of every table, counted at once: the hostile and matrix suites assert nothing changed. */
export async function rowCounts(): Promise<Record<string, number>> {
  const tables = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations'",
  ).all<{ name: string }>();
  const names = tables.results.map((t) => t.name).sort();
  if (!names.length) return {};
  const sql = `select ${names.map((n, i) => `(select count(*) from "${n}") as c${i}`).join(", ")}`;
  const row = (await env.DB.prepare(sql).first<Record<string, number>>())!;
  const counts: Record<string, number> = {};
  for (const [i, n] of names.entries()) counts[n] = row[`c${i}`]!;
  let objects = 0;
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ cursor, limit: 1000 });
    objects += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  counts["r2:objects"] = objects;
  return counts;
}

/** Gives a member a nickname and a qualified avatar (many actions need them, §5/§6) and a kycStatus. */
export async function dressUp(m: Member, kyc = 0): Promise<Member> {
  await env.DB.prepare("update profiles set nickname = ?, avator = ?, qualify = 1, kyc_status = ?, introduction = ? where member_id = ?")
    .bind(`Nick${m.memberNo}`, `/media/${m.projectCode}/${m.memberNo}/avatar/fixture000000000000000000.jpg`, kyc, "An introduction long enough to be listed anywhere.", m.memberId)
    .run();
  return { ...m, kycStatus: kyc };
}

/**
 * Row counts once background work (notifications sent with waitUntil by a fixture's calls, then their e-mail) has
 * landed: four equal readings in a row, 25 ms apart. Two were not enough on a loaded machine: a notification's e-mail
 * alert, written after the notification, could land after them and count as a change made by refused input.
 */
export async function settledCounts() {
  let previous = await rowCounts();
  let steady = 0;
  for (let i = 0; i < 40 && steady < 3; i++) {
    await new Promise((r) => setTimeout(r, 25));
    const next = await rowCounts();
    steady = JSON.stringify(next) === JSON.stringify(previous) ? steady + 1 : 0;
    previous = next;
  }
  return previous;
}

/** Builds the shared fixture: owner with secret profile fields, another member, a member of ABC. */
export async function buildFixture(): Promise<Fixture> {
  const [owner, other, foreign] = [await signUp("SMP"), await signUp("SMP"), await signUp("ABC")];
  await dressUp(owner);
  await dressUp(other);
  await dressUp(foreign);
  const tag = owner.memberNo;
  const secrets = [`+1-555-PHONE-${tag}`, `+1-555-MOBILE-${tag}`, `1 Secret Lane ${tag}`, `pineapple-${tag}`];
  await env.DB.prepare("update profiles set phone = ?, mobile = ?, default_address = ?, safeword = ?, nickname = ? where member_id = ?")
    .bind(...secrets, `Owner ${tag}`, owner.memberId)
    .run();
  return {
    owner,
    other,
    foreign,
    fresh: (p = "SMP") => signUp(p),
    member: async ({ kyc = 0, project = "SMP", gender } = {}) => {
      const m = await dressUp(await signUp(project), kyc);
      if (gender) await env.DB.prepare("update profiles set multi_gender = ? where member_id = ?").bind(gender, m.memberId).run();
      return m;
    },
    secrets: [...secrets, owner.email, owner.token],
  };
}

let deviceKeys: Promise<{ name: string; encryptionKey: string; signingKey: string }> | undefined;
/** Real public keys for an end-to-end device (the server imports both before storing them); made once per file. */
export function testDeviceKeys() {
  deviceKeys ??= (async () => {
    const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
    const rsa = (await crypto.subtle.generateKey({ name: "RSA-OAEP", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["encrypt", "decrypt"])) as CryptoKeyPair;
    const ec = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    return {
      name: "Matrix browser",
      encryptionKey: b64((await crypto.subtle.exportKey("spki", rsa.publicKey)) as ArrayBuffer),
      signingKey: b64((await crypto.subtle.exportKey("spki", ec.publicKey)) as ArrayBuffer),
    };
  })();
  return deviceKeys;
}
