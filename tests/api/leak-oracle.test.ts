import { env } from "cloudflare:test";
import { md5 } from "js-md5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { createWorkerApp } from "../../worker/worker-app";
import { call, fetchWorker, login, signUp } from "../support/client";
import { mountedRoutes, pngBytes, type MountedRoute } from "../support/route-matrix";
import { openSocket, type TestSocket } from "../support/socket";
import {
  VIEWERS,
  describeFindings,
  findNeedles,
  findShapes,
  plant,
  plantHiddenConnections,
  type Finding,
  type PlantIo,
  type PlantMember,
  type Planted,
  type ViewerName,
} from "../support/leak-plant";

/**
 * The leak oracle (SECURITY.md threat model). Secrets are planted in an owner and a closed profile
 * (tests/support/leak-plant.ts); then EVERY route the worker app mounts (`app.routes`, the enumeration the
 * authorization matrix uses: a route added tomorrow is called tomorrow) is called as a visitor, another member, a
 * member the planted members blocked and a member of another tenant, and every socket those viewers can open is
 * listened to while the owner acts. Any planted secret in any body, header or frame is a finding naming the route,
 * the viewer and the secret. A path parameter the oracle cannot fill fails loudly: teach `candidates` below.
 */

const app = createWorkerApp();
const apiRoutes = mountedRoutes(app);

const io: PlantIo = {
  signUp: (project) => signUp(project),
  api: (method, path, as, body) => call(method, path, { as, body }),
  sql: async (statements) => {
    for (const statement of statements) await env.DB.prepare(statement).run();
  },
  rows: async <T,>(statement: string) => (await env.DB.prepare(statement).all<T>()).results,
  image: () => ({ bytes: pngBytes(), type: "image/png", name: "oracle.png" }),
};

let p: Planted;
const viewerMember = (viewer: ViewerName): PlantMember | null => (viewer === "visitor" ? null : p.viewers[viewer]);

beforeAll(async () => {
  p = await plant(io);
}, 120_000);

// ── calling routes ──

type Hit = { status: number; text: string; headers: Headers };

/** A member whose session a route ended (logout, …) signs in again so the sweep goes on. */
async function relogin(viewer: ViewerName) {
  const m = p.viewers[viewer as Exclude<ViewerName, "visitor">];
  const reply = await login(m.projectCode, m.email, m.password);
  if (reply.status !== 200) throw new Error(`re-login of ${viewer} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  m.token = reply.body.info.token;
  m.headers = { "X-Access-Token": m.token, "X-Member-ID": m.memberId };
}

/** Statuses seen per sweep, printed so a reader sees the coverage (a wall of 429s would hide leaks). */
const statuses = new Map<string, Record<number, number>>();
function tally(sweep: string, status: number) {
  const counts = statuses.get(sweep) ?? {};
  counts[status] = (counts[status] ?? 0) + 1;
  statuses.set(sweep, counts);
}
afterAll(() => {
  for (const [sweep, counts] of statuses) console.info(`[leak oracle] ${sweep}: statuses ${JSON.stringify(counts)}`);
});

async function hit(method: string, path: string, viewer: ViewerName, body?: string, as?: PlantMember): Promise<Hit> {
  for (let attempt = 0; ; attempt++) {
    const m = as ?? viewerMember(viewer);
    const headers: Record<string, string> = { ...(m?.headers ?? {}) };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetchWorker(path, { method, headers, body });
    const text = await response.text();
    if (m && !as && attempt === 0 && response.status === 401 && text.includes("100003")) {
      await relogin(viewer);
      continue;
    }
    if (!as) tally(`${method === "GET" ? "reads" : "writes"} as ${viewer}`, response.status);
    return { status: response.status, text, headers: response.headers };
  }
}

/**
 * `/public` routes take no session (§7): a signed-in viewer there is a visitor, so what a visitor may see (e.g. the
 * owner's nickname) is no finding for a blocked member or another tenant; everything hidden from visitors still is.
 */
const needlesFor = (address: string, viewer: ViewerName) =>
  address.startsWith("/api/v7/public/") && viewer !== "visitor" ? p.needles.filter((n) => n.hiddenFrom.includes("visitor")) : p.needles;

function scan(where: string, address: string, viewer: ViewerName, reply: Hit, findings: Finding[]) {
  const headerText = [...reply.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  const needles = needlesFor(address, viewer);
  for (const n of findNeedles(reply.text, viewer, needles)) findings.push({ where, address, viewer, kind: n.kind, value: n.value, part: "body" });
  for (const n of findNeedles(headerText, viewer, needles)) findings.push({ where, address, viewer, kind: n.kind, value: n.value, part: "headers" });
  let json: unknown = null;
  try {
    json = JSON.parse(reply.text);
  } catch {
    /* not JSON: needles only */
  }
  for (const s of findShapes(json, viewer)) findings.push({ where, address, viewer, kind: s.kind, value: s.value, part: "body" });
}

/**
 * The values a path parameter takes: the planted members' numbers, ids and records, and for reads the viewer's own
 * (their own inbox, visitors, chats may carry the owner too). Unknown parameters fail the test.
 */
function candidates(route: Pick<MountedRoute, "method" | "path">, name: string, viewer: ViewerName): string[] {
  const self = route.method === "GET" ? viewerMember(viewer) : null;
  const segments = route.path.split("/");
  const before = segments[segments.findIndex((s) => s.startsWith(`:${name}`)) - 1] ?? "";
  const numbers = [p.owner.memberNo, p.closed.memberNo, ...(self ? [self.memberNo] : [])];
  const memberIds = [p.owner.memberId, p.closed.memberId, ...(self ? [self.memberId] : [])];
  const rooms = [PUBLIC_CHATROOM_ID, p.ids.dmRoom, md5(p.owner.memberNo), ...(self ? [directChatroomId(p.owner.memberNo, self.memberNo)] : [])];
  const messages = [p.ids.publicMessage, p.ids.privateMessage, p.ids.privateImageMessage, p.ids.privateReply].map(String);
  switch (name) {
    case "project":
    // The tenant's web app manifest (/{projectCode}/manifest.webmanifest).
    case "projectCode":
      return ["SMP"];
    case "memberId":
      return memberIds;
    case "memberNo":
    case "simpleCode":
    case "masterMemberNo":
    case "fromMemberNo":
    case "toMemberNo":
    case "code":
      return numbers;
    case "id":
      if (before === "users") return numbers;
      if (before === "banners" || before === "size") return [String(p.ids.banner)];
      if (route.path.includes("/chatroom/messages/")) return messages;
      if (before === "chatroom" || before === "chatrooms") return rooms;
      break;
    case "idAlbum":
      return [String(p.ids.keyedAlbum), String(p.ids.openAlbum)];
    case "idPhoto":
      return [String(p.ids.keyedPhoto)];
    case "idBlock":
      return [String(p.ids.block)];
    case "idConnection":
      return [String(p.ids.connection)];
    case "idTask":
      return [String(p.ids.task)];
    case "idProfile":
      return [String(p.ids.ownerProfileId), String(p.ids.closedProfileId)];
    case "idChatroomMessage":
      return messages;
    // Records the planted members do not own: the lowest ids, so the answer is someone's or "not found".
    case "idMission":
    case "idGuestbook":
    case "idRequest":
    case "idBiddingLoop":
    case "idCharacter":
    case "idAction":
    case "idMutedWord":
    // Card payments: a payment number the planted members may not own.
    case "idPayment":
      return ["1"];
    // A saved card the planted members never saved: someone's or "not found".
    case "idCard":
      return ["pm_leakOracleCard0001"];
    // A device id the planted members never registered (22 base64url characters): someone's or "not found".
    case "deviceId":
      return ["leakOracleDevice000001"];
    case "gender":
      return ["1"];
    case "lookFor":
      return ["3"];
    case "lang":
      return ["en"];
    case "file":
      return [`${p.tag}.png`];
    // Collectibles and the daily lottery: the lowest edition (someone's or "not found") and today's draw of the tenant.
    case "idEdition":
      return ["1"];
    case "drawDate":
      return [new Date().toISOString().slice(0, 10)];
  }
  throw new Error(`leak oracle: no value for :${name} in ${route.method} ${route.path} — teach candidates() in tests/api/leak-oracle.test.ts`);
}

/** Every way to fill a pattern (product of each parameter's candidates). */
function fillings(route: Pick<MountedRoute, "method" | "path">, viewer: ViewerName): string[] {
  let paths = [route.path];
  for (const match of route.path.matchAll(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g)) {
    const values = candidates(route, match[1]!, viewer);
    paths = paths.flatMap((path) => values.map((v) => path.replace(match[0], encodeURIComponent(v))));
  }
  return [...new Set(paths)];
}

/** Query keys the list and search routes read (unknown keys are ignored by every query schema). */
const queryFor = () =>
  `?${new URLSearchParams({ project: "SMP", keyword: p.tag, chatroomId: PUBLIC_CHATROOM_ID, source: "WEB_PUSH", sign: "leo" })}`;

/** The full address: API routes are keyed without `/api/v7`; other API doors keep their own path. */
const addressOf = (path: string) => (path.startsWith("/public/") || path.startsWith("/private/") ? `/api/v7${path}` : path);

/** Routes of the app outside `/api` (media, private media, AI output): patterns with a parameter or a wildcard. */
const otherRoutes = [
  ...new Map(
    app.routes
      .filter((r) => r.method !== "ALL" && !r.path.startsWith("/api/") && r.path !== "/*" && r.path !== "*")
      .map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }]),
  ).values(),
];

const called = new Set<string>();
const findingsByViewer = new Map<ViewerName, Finding[]>();

describe("leak oracle: every API route as every viewer", () => {
  it("enumerates the app's own route table", () => {
    expect(apiRoutes.length).toBeGreaterThan(100);
    expect(otherRoutes.some((r) => r.path.startsWith("/media"))).toBe(true);
    expect(otherRoutes.some((r) => r.path.startsWith("/private-media"))).toBe(true);
  });

  for (const viewer of VIEWERS) {
    it(`reads (GET) as ${viewer}`, async () => {
      const findings: Finding[] = [];
      for (const route of apiRoutes.filter((r) => r.method === "GET")) {
        for (const path of fillings(route, viewer)) {
          const address = addressOf(path);
          scan(`GET ${route.path}`, address, viewer, await hit("GET", address + queryFor(), viewer), findings);
          called.add(route.key);
        }
      }
      for (const route of otherRoutes) {
        if (route.path.includes("*")) continue;
        for (const path of fillings(route, viewer)) {
          scan(`GET ${route.path}`, path, viewer, await hit("GET", path, viewer), findings);
          called.add(`GET ${route.path}`);
        }
      }
      findingsByViewer.set(viewer, findings);
      expect(findings, `planted secrets reached ${viewer}:\n${describeFindings(findings)}`).toEqual([]);
    }, 120_000);
  }

  for (const viewer of VIEWERS) {
    it(`private files stay private to ${viewer}`, async () => {
      const findings: Finding[] = [];
      for (const file of p.privateFiles) {
        const key = file.url.replace(/^\/(private-)?media\//, "");
        for (const door of ["/private-media/", "/media/"]) {
          const reply = await hit("GET", `${door}${key}`, viewer);
          if (reply.status < 300) findings.push({ where: `GET ${door}<${file.kind}>`, viewer, kind: `${file.kind} served`, value: String(reply.status), part: "status" });
          scan(`GET ${door}<${file.kind}>`, `${door}${key}`, viewer, reply, findings);
        }
      }
      expect(findings, `private files reached ${viewer}:\n${describeFindings(findings)}`).toEqual([]);
    });
  }

  for (const viewer of VIEWERS) {
    it(`writes (non-GET, harmless or invalid bodies) as ${viewer}`, async () => {
      const findings: Finding[] = [];
      // Sessions may end along the way (logout): `hit` signs the viewer in again.
      for (const route of apiRoutes.filter((r) => r.method !== "GET")) {
        for (const path of fillings(route, viewer)) {
          const address = addressOf(path);
          for (const body of ["{}", "{"]) {
            scan(`${route.method} ${route.path}`, `${address} with body ${body}`, viewer, await hit(route.method, address, viewer, body), findings);
          }
          called.add(route.key);
        }
      }
      expect(findings, `planted secrets reached ${viewer}:\n${describeFindings(findings)}`).toEqual([]);
    }, 120_000);
  }

  // The oracle is not blind: the rightful readers do get each secret, in the form the needle looks for.
  it("sees the planted secrets where they belong (owner, recipient)", async () => {
    const text = async (path: string, as: PlantMember) => (await hit("GET", `/api/v7${path}`, "member", undefined, as)).text;
    const seen = [
      await text(`/private/core/profiles/${p.owner.memberId}`, p.owner),
      await text(`/private/core/profiles/${p.closed.memberId}`, p.closed),
      await text(`/private/sns/albums/${p.ids.keyedAlbum}`, p.owner),
      await text(`/private/sns/chatroom/${p.ids.dmRoom}/messages`, p.recipient),
      await text(`/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages`, p.recipient),
    ].join("\n");
    const expected = [
      "owner phone", "owner mobile", "owner defaultAddress", "owner safeword", "owner exact latitude", "owner exact longitude", "owner geohash (9 chars)",
      "owner original avatar key", "closed profile introduction", "closed profile skypeId", "closed profile exact latitude",
      "owner keyed album seed (hex)", "owner keyed album file key", "owner private message text", "owner private image key", "owner private reply text",
    ];
    const blind = expected.filter((kind) => !seen.includes(p.needles.find((n) => n.kind === kind)!.value));
    expect(blind, "needles the rightful reader does not get (the oracle would be blind to them)").toEqual([]);
  });

  it("called every mounted API route", () => {
    const missed = apiRoutes.filter((r) => !called.has(r.key)).map((r) => r.key);
    expect(missed).toEqual([]);
  });
});

// ── sockets ──

function privateImageForm() {
  const form = new FormData();
  form.set("type", "private");
  form.set("file", new File([pngBytes() as BlobPart], "live.png", { type: "image/png" }));
  return form;
}

type Listener = { label: string; socket: TestSocket };

async function listen(viewer: ViewerName): Promise<{ listeners: Listener[]; refused: string[] }> {
  const m = viewerMember(viewer);
  const project = m?.projectCode ?? "SMP";
  const rooms: [string, string][] = [
    ["chat-room", `SMP~${PUBLIC_CHATROOM_ID}`],
    ["chat-room", `${project}~${PUBLIC_CHATROOM_ID}`],
    ["chat-room", `SMP~${p.ids.dmRoom}`],
    ["chat-room", `SMP~${md5(p.owner.memberNo)}`],
    ["presence", "SMP~presence"],
    ["presence", `${project}~presence`],
    ...(m
      ? ([
          ["member-inbox", `${project}~${m.memberId}`],
          ["chat-room", `SMP~${directChatroomId(p.owner.memberNo, m.memberNo)}`],
          ["chat-room", `SMP~${directChatroomId(p.closed.memberNo, m.memberNo)}`],
        ] as [string, string][])
      : []),
  ];
  const listeners: Listener[] = [];
  const refused: string[] = [];
  for (const [party, name] of [...new Map(rooms.map((r) => [r.join("/"), r])).values()]) {
    const opened = await openSocket(m as Parameters<typeof openSocket>[0], party, name);
    if (opened instanceof Response) {
      refused.push(`${party}/${name} → ${opened.status}`);
      await opened.text();
    } else listeners.push({ label: `socket ${party}/${name}`, socket: opened });
  }
  return { listeners, refused };
}

describe("leak oracle: socket frames", () => {
  const open: Listener[] = [];
  afterAll(() => {
    for (const l of open) l.socket.close();
  });

  it("no planted secret reaches any viewer's sockets while the planted members act", async () => {
    const byViewer = new Map<ViewerName, Listener[]>();
    for (const viewer of VIEWERS) {
      const { listeners } = await listen(viewer);
      byViewer.set(viewer, listeners);
      open.push(...listeners);
    }
    expect(byViewer.get("member")!.length, "another member opens the public room, presence and their inbox").toBeGreaterThanOrEqual(3);

    // Control: the recipient listens to their conversation with the owner (the oracle must see the secret there).
    const control = (await openSocket(p.recipient as Parameters<typeof openSocket>[0], "chat-room", `SMP~${p.ids.dmRoom}`)) as TestSocket;
    open.push({ label: "control", socket: control });

    // The planted members come online and act while everyone listens.
    const ownerPresence = await openSocket(p.owner as Parameters<typeof openSocket>[0], "presence", "SMP~presence");
    const closedPresence = await openSocket(p.closed as Parameters<typeof openSocket>[0], "presence", "SMP~presence");
    for (const s of [ownerPresence, closedPresence]) if (!(s instanceof Response)) open.push({ label: "planted presence", socket: s });
    const owner = p.owner;
    const act = async (method: string, path: string, body?: unknown) => {
      const reply = await call(method, path, { as: owner, body });
      if (reply.status !== 200) throw new Error(`owner act ${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    };
    const stamp = `${Date.now().toString(36)}`;
    // A blur-flagged avatar may not post (§5; tests/api/posting-rules.test.ts): the owner's live words in the public
    // room are edits of the planted public message and private reply, which fan out with the owner's card.
    const refused = await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${owner.memberId}`, { as: owner, body: { message: `Oracle live hello ${stamp}`, requestId: `oracle-live-${stamp}` } });
    expect(refused.body.returnCode, "a blurred avatar may not post").toBe("403205");
    await act("PUT", `/private/sns/chatroom/messages/${owner.memberId}/${p.ids.publicMessage}`, { message: `Oracle live hello ${stamp}` });
    await act("PUT", `/private/sns/chatroom/messages/${owner.memberId}/${p.ids.privateReply}`, { message: p.needles.find((n) => n.kind === "owner private reply text")!.value });
    await act("POST", `/private/sns/chatrooms/${p.ids.dmRoom}/messages/${owner.memberId}`, {
      message: p.needles.find((n) => n.kind === "owner private message text")!.value,
      requestId: `oracle-live-dm-${stamp}`,
    });
    // A fresh private image (an upload is sent once); its key is one more secret.
    const liveImage = await call("POST", `/private/core/files/${owner.memberId}`, { as: owner, body: privateImageForm() });
    if (liveImage.status !== 200) throw new Error(`owner act: private upload ${liveImage.status} ${JSON.stringify(liveImage.body)}`);
    const liveImageUrl = liveImage.body.info.url as string;
    p.needles.push({ kind: "owner private image key (sent live)", value: liveImageUrl.split("/").pop()!.replace(/\.[a-z]+$/, ""), hiddenFrom: VIEWERS });
    await act("POST", `/private/sns/chatrooms/${p.ids.dmRoom}/messages/${owner.memberId}`, {
      message: "",
      payload: { type: "img", src: liveImageUrl },
      requestId: `oracle-live-img-${stamp}`,
    });
    // A harmless direct message to each member viewer (their own conversation carries the owner's card).
    for (const viewer of ["member", "blocked"] as const) {
      await call("POST", `/private/sns/chatrooms/${directChatroomId(owner.memberNo, p.viewers[viewer].memberNo)}/messages/${owner.memberId}`, {
        as: owner,
        body: { message: `Oracle hello you ${stamp}`, requestId: `oracle-live-${viewer}-${stamp}` },
      });
    }
    await act("PUT", `/private/core/geolocation/${owner.memberId}`, { latitude: 35.6581234, longitude: 139.7016789 });
    await act("PATCH", `/private/core/profiles/${owner.memberId}`, { introduction: `Oracle live introduction ${stamp} for everyone.` });
    await call("PATCH", `/private/core/profiles/${p.closed.memberId}`, { as: p.closed, body: { introduction: p.needles.find((n) => n.kind === "closed profile introduction")!.value } });
    await new Promise((r) => setTimeout(r, 800));

    const privateText = p.needles.find((n) => n.kind === "owner private message text")!.value;
    expect(JSON.stringify(control.events), "the recipient's socket carries the private message (the oracle is not blind)").toContain(privateText);

    const findings: Finding[] = [];
    for (const viewer of VIEWERS) {
      for (const { label, socket } of byViewer.get(viewer)!) {
        for (const frame of socket.events) {
          const text = JSON.stringify(frame);
          for (const n of findNeedles(text, viewer, p.needles)) findings.push({ where: label, viewer, kind: n.kind, value: n.value, part: `frame ${String(frame.type ?? "")}` });
          for (const s of findShapes(frame, viewer)) findings.push({ where: label, viewer, kind: s.kind, value: s.value, part: "frame" });
        }
      }
    }
    expect(findings, `planted secrets in socket frames:\n${describeFindings(findings)}`).toEqual([]);
  }, 60_000);

  it("a visitor opens no socket; another tenant and a stranger open no one else's room", async () => {
    const visitor = await listen("visitor");
    for (const l of visitor.listeners) l.socket.close();
    expect(visitor.listeners.map((l) => l.label)).toEqual([]);
    for (const viewer of ["member", "blocked", "foreign"] as const) {
      const { listeners } = await listen(viewer);
      for (const l of listeners) l.socket.close();
      const labels = listeners.map((l) => l.label);
      expect(labels, `${viewer} must not join the owner's conversation with someone else`).not.toContain(`socket chat-room/SMP~${p.ids.dmRoom}`);
      if (viewer === "foreign") expect(labels.filter((l) => l.includes("/SMP~")), "another tenant joins no room of SMP").toEqual([]);
    }
  }, 60_000);
});

// ── approve followers (README Decisions "Approve followers"), appended ──

// Planted before any test of the file (a top-level hook): the sweeps' writes spend the member viewer's follow budget.
let a: import("../support/leak-plant").PlantedApprover;
beforeAll(async () => {
  // Imported here so the oracle's earlier lines stay as they were (appended section).
  const { plantApprover } = await import("../support/leak-plant");
  a = await plantApprover(io, p);
}, 60_000);

describe("leak oracle: a member who approves followers, as every viewer", () => {

  /** Member parameters name the approver; every other parameter takes the oracle's usual values. */
  function approverFillings(route: Pick<MountedRoute, "method" | "path">, viewer: ViewerName): string[] {
    let paths = [route.path];
    for (const match of route.path.matchAll(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g)) {
      const name = match[1]!;
      const values = name === "memberId" ? [a.approver.memberId] : ["memberNo", "simpleCode", "masterMemberNo", "code"].includes(name) ? [a.approver.memberNo] : candidates(route, name, viewer);
      paths = paths.flatMap((path) => values.map((v) => path.replace(match[0], encodeURIComponent(v))));
    }
    return [...new Set(paths)];
  }

  for (const viewer of VIEWERS) {
    it(`reads (GET) as ${viewer} never carry what only accepted followers get`, async () => {
      const findings: Finding[] = [];
      for (const route of apiRoutes.filter((r) => r.method === "GET")) {
        for (const path of approverFillings(route, viewer)) {
          const address = addressOf(path);
          const reply = await hit("GET", address + queryFor(), viewer);
          for (const n of findNeedles(reply.text, viewer, a.needles)) findings.push({ where: `GET ${route.path}`, address, viewer, kind: n.kind, value: n.value, part: "body" });
        }
      }
      expect(findings, `an approver's follower-only data reached ${viewer}:\n${describeFindings(findings)}`).toEqual([]);
    }, 120_000);
  }

  it("the oracle is not blind: an accepted follower gets the cell and the footprint", async () => {
    const text = async (path: string) => (await hit("GET", `/api/v7${path}`, "member", undefined, p.recipient)).text;
    const seen = [await text(`/private/core/profiles/SMP/member/${a.approver.memberNo}`), await text(`/private/core/profiles/SMP/page/${a.approver.memberNo}`)].join("\n");
    expect(a.needles.filter((n) => !seen.includes(n.value)).map((n) => n.kind)).toEqual([]);
  });
});

// ── who sees my connections (README Decisions "Who sees my connections") ──
// Runs after the plant above (hooks run in order): every sweep of this file then also looks for the owner's hidden
// sub-member, follower and counts.
let hiddenConnections: Awaited<ReturnType<typeof plantHiddenConnections>>;
beforeAll(async () => {
  hiddenConnections = await plantHiddenConnections(io, p);
}, 60_000);

describe("leak oracle: hidden connections", () => {
  it("the owner still gets them (the oracle is not blind)", async () => {
    const text = async (path: string) => (await hit("GET", `/api/v7${path}`, "member", undefined, p.owner)).text;
    const own = [
      await text(`/private/sns/sub-members/SMP/${p.owner.memberNo}`),
      await text(`/private/core/followers/${p.owner.memberId}?pageSize=30`),
      await text(`/private/sns/hierarchy/SMP/${p.owner.memberNo}`),
    ].join("\n");
    expect(own).toContain(hiddenConnections.subNick);
    expect(own).toContain(hiddenConnections.fanNick);
    // The counts' needles are what a viewer allowed to see them gets: the recipient, made the owner's friend here.
    await call("POST", "/private/core/friends/request", { as: p.recipient, body: { targetMemberNo: p.owner.memberNo } });
    await call("POST", "/private/core/friends/accept", { as: p.owner, body: { targetMemberNo: p.recipient.memberNo } });
    const friendView = (await hit("GET", `/api/v7/private/core/follows/${p.owner.memberNo}`, "member", undefined, p.recipient)).text;
    for (const kind of ["owner's hidden follower count", "owner's hidden following count"]) expect(friendView).toContain(p.needles.find((n) => n.kind === kind)!.value);
  });
});

// ── creator profiles (README Decisions "DNA pairing and creator profiles") ──
// Runs after the plants above: every sweep of this file then also looks for the closed profile's creator fields.
let closedCreator: Awaited<ReturnType<typeof import("../support/leak-plant").plantClosedCreator>>;
beforeAll(async () => {
  const { plantClosedCreator } = await import("../support/leak-plant");
  closedCreator = await plantClosedCreator(io, p);
}, 60_000);

describe("leak oracle: a closed profile's creator profile", () => {
  it("its owner still gets every field (the oracle is not blind)", async () => {
    const own = (await hit("GET", `/api/v7/private/core/creator-profiles/SMP/${p.closed.memberNo}`, "member", undefined, p.closed)).text;
    expect(closedCreator.needles.filter((n) => !own.includes(n.value)).map((n) => n.kind)).toEqual([]);
  });
});
