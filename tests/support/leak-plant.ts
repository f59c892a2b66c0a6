import ngeohash from "ngeohash";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";

/**
 * The leak oracle's planted secrets (tests/api/leak-oracle.test.ts, tests/e2e/leak-oracle.e2e.ts). Secrets are
 * planted through the real API (straight into D1 only for flags no route sets: blur, kycStatus) in two members:
 *
 * - `owner`: blur-flagged (only the owner may see the original avatar), exact position, private fields, a keyed
 *   album (key, file, seed), a private message with an image and a private reply in the public room;
 * - `closed`: a closed profile (introduction and contact handles are for allowed members only), also with an exact
 *   position and private fields.
 *
 * Each secret is a needle in the canonical forms a leak would take (coordinate digits to 5 decimals, 9- and 7-char
 * geohash prefixes, media keys, seed bytes as hex and base64, the sealed seed as stored), with the viewers it must
 * never reach. Helpers run in workerd (API test) and in Node (page test): all I/O comes in through `PlantIo`.
 */

export type ViewerName = "visitor" | "member" | "blocked" | "foreign";
export const VIEWERS: readonly ViewerName[] = ["visitor", "member", "blocked", "foreign"];
export const VIEWER_LABEL: Record<ViewerName, string> = {
  visitor: "a visitor",
  member: "another member (not friend, not followed)",
  blocked: "a member the planted members blocked",
  foreign: "a member of another tenant",
};

export type PlantMember = {
  memberId: string;
  memberNo: string;
  token: string;
  email: string;
  password: string;
  projectCode: string;
  headers: Record<string, string>;
};

export type PlantIo = {
  signUp: (project: string) => Promise<PlantMember>;
  /** `/api/v7{path}` as `as` (null: no session); throws on a non-000000 answer when `ok` is set. */
  api: (method: string, path: string, as: PlantMember | null, body?: unknown) => Promise<{ status: number; body: any }>;
  /** Literal SQL statements (test data only). */
  sql: (statements: string[]) => Promise<void>;
  /** One literal select. */
  rows: <T>(statement: string) => Promise<T[]>;
  /** A square mid-tone image that qualifies as an avatar, and its MIME type. */
  image: () => { bytes: Uint8Array; type: string; name: string };
};

export type Needle = {
  /** What the secret is, e.g. "owner exact latitude". */
  kind: string;
  value: string;
  /** Viewers who must never receive it. */
  hiddenFrom: readonly ViewerName[];
};

export type Planted = {
  tag: string;
  owner: PlantMember;
  closed: PlantMember;
  recipient: PlantMember;
  footprint: PlantMember;
  viewers: { member: PlantMember; blocked: PlantMember; foreign: PlantMember };
  ids: {
    keyedAlbum: number;
    openAlbum: number;
    keyedPhoto: number;
    banner: number;
    publicMessage: number;
    privateMessage: number;
    privateImageMessage: number;
    privateReply: number;
    dmRoom: string;
    ownerProfileId: number;
    closedProfileId: number;
    block: number;
    connection: number;
    task: number;
  };
  /** URLs of the owner's private files (must never answer 2xx to a viewer). */
  privateFiles: { kind: string; url: string }[];
  needles: Needle[];
};

/** Exact points (7 decimals, a doorstep): the oracle looks for their first 5 decimals anywhere. */
export const OWNER_POINT = { latitude: 35.6581234, longitude: 139.7016789 };
export const CLOSED_POINT = { latitude: 34.6937421, longitude: 135.5022345 };
/** Viewers stand a few km away on a 0.01° grid (their own digits never look like a planted point). */
const VIEWER_POINT = { latitude: 35.69, longitude: 139.74 };

const EVERYONE: readonly ViewerName[] = VIEWERS;
/** Public to members of the tenant, not to visitors, blocked members or other tenants (§6, adversary checklist). */
const NOT_PUBLIC: readonly ViewerName[] = ["visitor", "blocked", "foreign"];
/** Exists only for the tenant and those not blocked: a blocked member and another tenant get "not found". */
const NOT_FOUND: readonly ViewerName[] = ["blocked", "foreign"];

const decimals = (value: number, places: number) => {
  const [whole, fraction = ""] = String(value).split(".");
  return `${whole}.${fraction.slice(0, places)}`;
};

function bytesOfHex(hex: string) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const base64url = (bytes: Uint8Array) => base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
/** The random part of a media key or URL (`…/<kind>/<random>.<ext>`): unique to that file. */
const mediaId = (keyOrUrl: string) => keyOrUrl.split("/").pop()!.replace(/\.[a-z]+$/, "");

function positionNeedles(who: string, point: { latitude: number; longitude: number }): Needle[] {
  const hash = ngeohash.encode(point.latitude, point.longitude, 9);
  return [
    { kind: `${who} exact latitude`, value: decimals(point.latitude, 5), hiddenFrom: EVERYONE },
    { kind: `${who} exact longitude`, value: decimals(point.longitude, 5), hiddenFrom: EVERYONE },
    { kind: `${who} geohash (9 chars)`, value: hash, hiddenFrom: EVERYONE },
    { kind: `${who} geohash (7 chars, ~150 m)`, value: hash.slice(0, 7), hiddenFrom: EVERYONE },
  ];
}

async function expectOk(io: PlantIo, method: string, path: string, as: PlantMember | null, body?: unknown) {
  const reply = await io.api(method, path, as, body);
  if (reply.status !== 200 || reply.body?.returnCode !== "000000") throw new Error(`plant: ${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.info;
}

function imageForm(io: PlantIo, type: string) {
  const { bytes, type: mime, name } = io.image();
  const form = new FormData();
  form.set("type", type);
  form.set("file", new File([bytes as BlobPart], name, { type: mime }));
  return form;
}

/** A member with a nickname and a qualifying avatar (so they see others' originals where allowed), standing nearby. */
async function dressed(io: PlantIo, project: string, nickname: string): Promise<PlantMember> {
  const m = await io.signUp(project);
  const upload = await expectOk(io, "POST", `/private/core/files/${project}/${m.memberId}`, m, imageForm(io, "avatar"));
  await expectOk(io, "PATCH", `/private/core/profiles/${m.memberId}`, m, {
    nickname,
    avator: upload.url,
    introduction: `${nickname} writes an ordinary introduction, long enough to be listed.`,
    coordinates: `${VIEWER_POINT.latitude},${VIEWER_POINT.longitude}`,
  });
  return m;
}

export async function plant(io: PlantIo): Promise<Planted> {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

  // ── the viewers and helpers ──
  const member = await dressed(io, "SMP", `Oracle Viewer ${tag}`);
  const blocked = await dressed(io, "SMP", `Oracle Blocked ${tag}`);
  const foreign = await dressed(io, "ABC", `Oracle Foreign ${tag}`);
  const recipient = await dressed(io, "SMP", `Oracle Recipient ${tag}`);
  // No avatar: never listed anywhere, so its nickname shows up only as someone's footprint.
  const footprint = await io.signUp("SMP");
  const footprintNick = `Footprint${tag}`;
  await expectOk(io, "PATCH", `/private/core/profiles/${footprint.memberId}`, footprint, { nickname: footprintNick });

  // ── the owner: blur-flagged, exact position, private fields, album, private messages ──
  const owner = await io.signUp("SMP");
  const avatar = await expectOk(io, "POST", `/private/core/files/SMP/${owner.memberId}`, owner, imageForm(io, "avatar"));
  const ownerNick = `Planted${tag}`;
  const ownerPrivate = {
    phone: `+81-3-5550-${tag}`,
    mobile: `+81-90-5551-${tag}`,
    defaultAddress: `2-21-1 Shibuya Secret Tower ${tag}`,
    safeword: `tangerine-${tag}`,
  };
  await expectOk(io, "PATCH", `/private/core/profiles/${owner.memberId}`, owner, {
    nickname: ownerNick,
    avator: avatar.url,
    introduction: `${ownerNick} likes long conversations about trust and aftercare.`,
    birthday: "1990-07-23",
    multiGender: 1,
    lookFor: 3,
    ...ownerPrivate,
    coordinates: `${OWNER_POINT.latitude},${OWNER_POINT.longitude}`,
  });
  await expectOk(io, "PUT", `/private/core/geolocation/${owner.memberId}`, owner, OWNER_POINT);
  await expectOk(io, "POST", `/private/sns/characters/${owner.memberId}`, owner, { idCharacter: 1 });
  // kycStatus 1 so the owner may send images (§5); set before the owner is blur-flagged (a blurred avatar may not post).
  await io.sql([`update profiles set kyc_status = 1 where member_id = '${owner.memberId}'`]);

  const albumKey = `oracle-album-key-${tag}`;
  const keyedAlbum = (await expectOk(io, "POST", "/private/sns/albums", owner, { title: `Oracle keyed ${tag}`, secretKey: albumKey })).idAlbum as number;
  const openAlbum = (await expectOk(io, "POST", "/private/sns/albums", owner, { title: `Oracle open ${tag}` })).idAlbum as number;
  const albumFile = await expectOk(io, "POST", `/private/sns/albums/${keyedAlbum}/files`, owner, imageForm(io, "photo"));
  const photo = await expectOk(io, "POST", "/private/sns/photos", owner, { idAlbum: keyedAlbum, filePath: albumFile.filePath, description: "" });
  const ownAlbum = await expectOk(io, "GET", `/private/sns/albums/${keyedAlbum}`, owner);
  const seedHex = String(ownAlbum.scrambleSeed ?? "");
  if (!/^[0-9a-f]{64}$/.test(seedHex)) throw new Error(`plant: the owner's keyed album has no seed: ${JSON.stringify(ownAlbum)}`);
  const [sealed] = await io.rows<{ seed_sealed: string }>(`select seed_sealed from albums where id_album = ${keyedAlbum}`);

  const photoUpload = await expectOk(io, "POST", `/private/core/files/SMP/${owner.memberId}`, owner, imageForm(io, "photo"));
  await expectOk(io, "POST", `/private/core/banners/${owner.memberId}`, owner, { image: photoUpload.url, pickable: true, width: photoUpload.width, height: photoUpload.height });
  const [bannerRow] = await io.rows<{ id: number }>(`select id_banner as id from banners where member_id = '${owner.memberId}' order by 1 desc limit 1`);

  await expectOk(io, "PUT", "/private/sns/chat-settings", recipient, { acceptFrom: "everyone" });
  const dmRoom = directChatroomId(owner.memberNo, recipient.memberNo);
  const privateText = `oracle private words ${tag}`;
  const privateReplyText = `oracle whisper ${tag}`;
  const publicMessage = await expectOk(io, "POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${owner.memberId}`, owner, {
    message: `Oracle hello everyone ${tag}`,
    requestId: `oracle-pub-${tag}`,
  });
  const privateMessage = await expectOk(io, "POST", `/private/sns/chatrooms/${dmRoom}/messages/${owner.memberId}`, owner, {
    message: privateText,
    requestId: `oracle-dm-${tag}`,
  });
  const dmImage = await expectOk(io, "POST", `/private/core/files/${owner.memberId}`, owner, imageForm(io, "private"));
  const privateImageMessage = await expectOk(io, "POST", `/private/sns/chatrooms/${dmRoom}/messages/${owner.memberId}`, owner, {
    message: "",
    payload: { type: "img", src: dmImage.url },
    requestId: `oracle-img-${tag}`,
  });
  const privateReply = await expectOk(io, "POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${owner.memberId}`, owner, {
    message: privateReplyText,
    isPrivate: true,
    toMemberNo: recipient.memberNo,
    requestId: `oracle-whisper-${tag}`,
  });
  const connection = await expectOk(io, "POST", "/private/sns/connections", owner, { memberNo: recipient.memberNo });
  const task = await expectOk(io, "POST", "/private/sns/tasks", owner, { subject: `Oracle task ${tag}`, description: "Kneel quietly for ten minutes." });

  // ── the closed profile ──
  const closed = await dressed(io, "SMP", `Closed${tag}`);
  const closedPrivate = {
    phone: `+81-6-5552-${tag}`,
    mobile: `+81-80-5553-${tag}`,
    defaultAddress: `1-1 Namba Hidden Court ${tag}`,
    safeword: `persimmon-${tag}`,
  };
  const closedHandles = {
    skypeId: `closed.skype.${tag}`,
    wechatId: `closedwechat${tag}`,
    telegramId: `closedtelegram${tag}`,
    twitterId: `closedtwitter${tag}`,
    instagramId: `closed.insta.${tag}`,
    dcardId: `closeddcard${tag}`,
    websiteUrl: `https://closed-${tag}.example.com/me`,
  };
  const closedIntro = `Closed introduction ${tag}: only the people I let in may read this.`;
  await expectOk(io, "PATCH", `/private/core/profiles/${closed.memberId}`, closed, {
    closed: true,
    introduction: closedIntro,
    birthday: "1988-11-02",
    ...closedPrivate,
    ...closedHandles,
    coordinates: `${CLOSED_POINT.latitude},${CLOSED_POINT.longitude}`,
  });

  // ── relationships: both block `blocked`; the footprint member visits both profiles ──
  await expectOk(io, "POST", "/private/core/blocks", owner, { targetMemberNo: blocked.memberNo });
  await expectOk(io, "POST", "/private/core/blocks", closed, { targetMemberNo: blocked.memberNo });
  const [blockRow] = await io.rows<{ id: number }>(`select id_block as id from blocks where member_id = '${owner.memberId}' order by 1 desc limit 1`);
  for (const target of [owner, closed]) await expectOk(io, "GET", `/private/core/profiles/SMP/page/${target.memberNo}`, footprint);

  // Only now: the owner's avatar is for the owner's eyes only (README Decisions on renditions).
  await io.sql([`update profiles set blur = 1 where member_id = '${owner.memberId}'`]);

  const profileIds = await io.rows<{ member_id: string; id_profile: number; email_hash: string | null }>(
    `select member_id, id_profile, email_hash from profiles where member_id in ('${owner.memberId}', '${closed.memberId}')`,
  );
  const profileOf = (m: PlantMember) => profileIds.find((r) => r.member_id === m.memberId)!;

  const seed = bytesOfHex(seedHex);
  const needles: Needle[] = [];
  const add = (kind: string, value: string | null | undefined, hiddenFrom: readonly ViewerName[] = EVERYONE) => {
    if (value) needles.push({ kind, value, hiddenFrom });
  };
  for (const [who, m, fields] of [["owner", owner, ownerPrivate], ["closed profile", closed, closedPrivate]] as const) {
    add(`${who} phone`, fields.phone);
    add(`${who} mobile`, fields.mobile);
    add(`${who} defaultAddress`, fields.defaultAddress);
    add(`${who} safeword`, fields.safeword);
    add(`${who} e-mail`, m.email);
    add(`${who} e-mail hash`, profileOf(m).email_hash);
    add(`${who} session token`, m.token);
  }
  needles.push(...positionNeedles("owner", OWNER_POINT), ...positionNeedles("closed profile", CLOSED_POINT));
  add("owner original avatar key", mediaId(avatar.url));
  add("owner keyed album secret key", albumKey);
  add("owner keyed album file key", mediaId(albumFile.filePath));
  add("owner keyed album seed (hex)", seedHex);
  add("owner keyed album seed (base64)", base64(seed).replace(/=+$/, ""));
  add("owner keyed album seed (base64url)", base64url(seed));
  add("owner keyed album seed (sealed, as stored)", sealed?.seed_sealed);
  add("owner private message text", privateText);
  add("owner private reply text", privateReplyText);
  add("owner private image key", mediaId(dmImage.url));
  add("closed profile introduction", closedIntro);
  for (const [field, value] of Object.entries(closedHandles)) add(`closed profile ${field}`, value);
  add("owner full birthday", "1990-07-23", NOT_PUBLIC);
  add("closed profile full birthday", "1988-11-02", NOT_PUBLIC);
  add("footprint (who visited the planted members)", footprintNick, NOT_PUBLIC);
  add("owner nickname", ownerNick, NOT_FOUND);
  add("closed profile nickname", `Closed${tag}`, NOT_FOUND);

  return {
    tag,
    owner,
    closed,
    recipient,
    footprint,
    viewers: { member, blocked, foreign },
    ids: {
      keyedAlbum,
      openAlbum,
      keyedPhoto: photo.idPhoto,
      banner: bannerRow!.id,
      publicMessage: publicMessage.idChatroomMessage,
      privateMessage: privateMessage.idChatroomMessage,
      privateImageMessage: privateImageMessage.idChatroomMessage,
      privateReply: privateReply.idChatroomMessage,
      dmRoom,
      ownerProfileId: profileOf(owner).id_profile,
      closedProfileId: profileOf(closed).id_profile,
      block: blockRow!.id,
      connection: connection.idConnection,
      task: task.idTask,
    },
    privateFiles: [
      { kind: "keyed album file", url: albumFile.filePath },
      { kind: "private message image", url: dmImage.url },
    ],
    needles,
  };
}

// ── the oracle ──

/** `where`: the route pattern, page or socket; `address`: the concrete URL or room it was seen at. */
export type Finding = { where: string; address?: string; viewer: ViewerName; kind: string; value: string; part: string };

/** Needles found in `text` that `viewer` must not get. */
export function findNeedles(text: string, viewer: ViewerName, needles: readonly Needle[]): Needle[] {
  if (!text) return [];
  return needles.filter((n) => n.hiddenFrom.includes(viewer) && text.includes(n.value));
}

/**
 * Shapes that leak without a planted value: a bearing finer than the 8 compass points, a distance finer than whole
 * km (to anyone), and to visitors the page-view count and a last access finer than its day (visitor surfaces).
 */
export function findShapes(json: unknown, viewer: ViewerName): { kind: string; value: string }[] {
  const out: { kind: string; value: string }[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 40 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
      if (/^bearing$/i.test(key) && typeof value === "number" && value % 45 !== 0) out.push({ kind: "bearing finer than 8 compass points", value: `${key}: ${value}` });
      if (/^distance(Km)?$/i.test(key) && typeof value === "number" && !Number.isInteger(value)) out.push({ kind: "distance finer than whole km", value: `${key}: ${value}` });
      if (viewer === "visitor" && key === "pageViews" && typeof value === "number") out.push({ kind: "page views shown to a visitor", value: `${key}: ${value}` });
      // SECURITY.md "What a visitor sees": last access leaves as its UTC day, never a time of day.
      if (viewer === "visitor" && key === "lastAccess" && value != null && !/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/.test(String(value)))
        out.push({ kind: "last access finer than its UTC day shown to a visitor", value: `${key}: ${value}` });
      walk(value, depth + 1);
    }
  };
  walk(json, 0);
  // One finding per kind and location is enough.
  return out.filter((f, i) => out.findIndex((g) => g.kind === f.kind) === i);
}

/** One line per surface and viewer: which secrets (kinds) reached them, with one address it was seen at. */
export function describeFindings(findings: readonly Finding[]) {
  const groups = new Map<string, { first: Finding; kinds: Set<string> }>();
  for (const f of findings) {
    const key = `${f.where}\u0000${f.viewer}`;
    const group = groups.get(key) ?? { first: f, kinds: new Set<string>() };
    group.kinds.add(f.part === "body" ? f.kind : `${f.kind} (${f.part})`);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(({ first, kinds }) => `  LEAK ${first.where} — as ${VIEWER_LABEL[first.viewer]} [${first.viewer}]: ${[...kinds].join("; ")}${first.address ? `  (e.g. ${first.address})` : ""}`)
    .join("\n");
}

// ── approve followers (README Decisions "Approve followers"), appended ──

/** Stands about 2–3 km from the viewers (another ~1 km cell), so nearby would list them to a member who may see it. */
export const APPROVER_POINT = { latitude: 35.6712345, longitude: 139.7612345 };

export type PlantedApprover = { approver: PlantMember; needles: Needle[] };

/**
 * A member who approves followers and shows their position: what a member (not an accepted follower) would get
 * beyond a visitor — the ~1 km cell (6-char geohash) and who visited them (a footprint's nickname) — is hidden from
 * every oracle viewer; `p.recipient` is an accepted follower (the rightful reader for the control).
 */
export async function plantApprover(io: PlantIo, p: Planted): Promise<PlantedApprover> {
  const approver = await dressed(io, "SMP", `Approver${p.tag}`);
  await expectOk(io, "PATCH", `/private/core/profiles/${approver.memberId}`, approver, { showPosition: true });
  await expectOk(io, "PUT", `/private/core/geolocation/${approver.memberId}`, approver, APPROVER_POINT);
  await expectOk(io, "POST", `/private/core/follows/${approver.memberNo}`, p.recipient);
  await expectOk(io, "POST", "/private/core/blocks", approver, { targetMemberNo: p.viewers.blocked.memberNo });
  const visitor = await io.signUp("SMP");
  const visitorNick = `Approverfootprint${p.tag}`;
  await expectOk(io, "PATCH", `/private/core/profiles/${visitor.memberId}`, visitor, { nickname: visitorNick });
  await expectOk(io, "GET", `/private/core/profiles/SMP/page/${approver.memberNo}`, visitor);
  await expectOk(io, "PUT", `/private/core/follow-approval/${approver.memberId}`, approver, { approveFollowers: true });
  // The oracle's member viewer asks to follow: a pending request lets nothing more in.
  await expectOk(io, "POST", `/private/core/follows/${approver.memberNo}`, p.viewers.member);
  return {
    approver,
    needles: [
      { kind: "approver cell (6-char geohash) to a member not accepted", value: ngeohash.encode(APPROVER_POINT.latitude, APPROVER_POINT.longitude, 6), hiddenFrom: EVERYONE },
      { kind: "approver footprint (who visited them) to a member not accepted", value: visitorNick, hiddenFrom: EVERYONE },
    ],
  };
}

// ── who sees my connections (README Decisions "Who sees my connections") ──

/**
 * Appended to the plant: the owner (a master, multiGender 1) lets only friends see their connections (none of the
 * four viewers is one), and gets a sub-member and a follower known only through the owner's lists: no avatar (never
 * listed anywhere else), a nickname that is the needle. The owner's counts are needles too, as the follow info would
 * write them (2 followers: the sub-member also follows; 1 followed: the recipient).
 */
export async function plantHiddenConnections(io: PlantIo, p: Planted) {
  const subNick = `HiddenSub${p.tag}`;
  const fanNick = `HiddenFan${p.tag}`;
  // In the page oracle the plant's last `io.sql` (wrangler, seconds) lets the preview server close an idle keep-alive
  // socket; a sign-up sent on it never reached the worker, so it is sent once more.
  const signUp = () => io.signUp("SMP").catch(() => io.signUp("SMP"));
  const [sub, fan] = [await signUp(), await signUp()];
  await expectOk(io, "PATCH", `/private/core/profiles/${sub.memberId}`, sub, { nickname: subNick });
  await expectOk(io, "PATCH", `/private/core/profiles/${fan.memberId}`, fan, { nickname: fanNick });
  await expectOk(io, "POST", "/private/sns/sub-members/SMP/join", sub, { masterMemberNo: p.owner.memberNo });
  for (const follower of [sub, fan]) await expectOk(io, "POST", `/private/core/follows/${p.owner.memberNo}`, follower);
  await expectOk(io, "POST", `/private/core/follows/${p.recipient.memberNo}`, p.owner);
  await expectOk(io, "PUT", `/private/core/connections-visibility/${p.owner.memberId}`, p.owner, { connectionsVisibility: "friends" });
  p.needles.push(
    { kind: "owner's hidden sub-member (nickname)", value: subNick, hiddenFrom: EVERYONE },
    { kind: "owner's hidden follower (nickname)", value: fanNick, hiddenFrom: EVERYONE },
    { kind: "owner's hidden follower count", value: `"followers":2`, hiddenFrom: EVERYONE },
    { kind: "owner's hidden following count", value: `"followingCount":1`, hiddenFrom: EVERYONE },
  );
  return { sub, fan, subNick, fanNick };
}

// ── creator profiles (README Decisions "DNA pairing and creator profiles") ──

/**
 * Appended to the plant: the closed profile's creator profile (introduction, website, company, title, location, one
 * link with its logo). None of the four oracle viewers is let in, so every field is hidden from every one of them.
 */
export async function plantClosedCreator(io: PlantIo, p: Planted) {
  const t = p.tag;
  const logo = await expectOk(io, "POST", `/private/core/files/SMP/${p.closed.memberId}`, p.closed, imageForm(io, "logo"));
  const creator = {
    introduction: `ClosedCreatorIntro${t}`,
    websiteUrl: `https://closed-creator-${t}.example.com/`,
    company: `ClosedCompany${t}`,
    title: `ClosedTitle${t}`,
    location: `ClosedLocation${t}`,
    links: [{ url: `https://closed-link-${t}.example.com/`, title: `ClosedLinkTitle${t}`, logo: logo.url as string }],
  };
  await expectOk(io, "PUT", `/private/core/creator-profiles/${p.closed.memberId}`, p.closed, creator);
  const needles: Needle[] = [
    { kind: "closed profile creator introduction", value: creator.introduction, hiddenFrom: EVERYONE },
    { kind: "closed profile creator websiteUrl", value: `closed-creator-${t}.example.com`, hiddenFrom: EVERYONE },
    { kind: "closed profile creator company", value: creator.company, hiddenFrom: EVERYONE },
    { kind: "closed profile creator title", value: creator.title, hiddenFrom: EVERYONE },
    { kind: "closed profile creator location", value: creator.location, hiddenFrom: EVERYONE },
    { kind: "closed profile creator link url", value: `closed-link-${t}.example.com`, hiddenFrom: EVERYONE },
    { kind: "closed profile creator link title", value: creator.links[0]!.title, hiddenFrom: EVERYONE },
    { kind: "closed profile creator logo key", value: mediaId(logo.url), hiddenFrom: EVERYONE },
  ];
  p.needles.push(...needles);
  return { creator, needles };
}
