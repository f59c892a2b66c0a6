// Generates the bench tenants (deterministic) straight into the bench's local D1/R2 through wrangler's platform proxy.
// Rows go in as multi-row INSERTs batched per call; a table that does not exist yet (a feature still landing) is skipped.
// Column lists come from the migrated database itself, so a column added by a feature is filled with its default.
import { createHash, pbkdf2Sync } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { PhotonImage } from "@cf-wasm/photon/node";
import { getPlatformProxy } from "wrangler";
import { log, prng } from "./util.mjs";

export const BENCH_PASSWORD = "bench-password-1";
const PBKDF2_ITERATIONS = 100_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const AVATARS = 24;
const LANGS = ["en", "ja", "zh-CN", "zh-TW"];
const WORDS = "rope silk velvet candle tea munch protocol trust limits aftercare collar lace ember moon fox storm lotus echo plum raven".split(" ");

/** Token of session `i` of a tenant: 32 characters, recomputable by the suites. */
export const sessionToken = (code, i) => `${code}tok${String(i).padStart(26, "0")}`;
export const memberId = (code, i) => `m${code}${String(i).padStart(20, "0")}`;
export const memberNo = (code, i) => String((code === "BIG" ? 30000000 : 70000000) + i);
export const avatarKey = (code, i) => `${code}/bench/avatar/a${String(i % AVATARS).padStart(2, "0")}.jpg`;
export const photoKey = (code, i) => `${code}/bench/photo/p${String(i % AVATARS).padStart(2, "0")}.jpg`;

const sha256 = (s) => createHash("sha256").update(s).digest("hex");
const words = (r, n) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(" ");

function sqlLiteral(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "NULL";
  return `'${String(v).replaceAll("'", "''")}'`;
}

function jpeg(seed, size) {
  const r = prng(seed);
  const [cr, cg, cb] = [60 + r() * 150, 60 + r() * 150, 60 + r() * 150];
  const px = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - size / 2, y - size / 2) / (size / 2);
      const shade = 0.6 + 0.3 * Math.cos(d * 3 + seed);
      const i = (y * size + x) * 4;
      px[i] = cr * shade; px[i + 1] = cg * shade; px[i + 2] = cb * shade; px[i + 3] = 255;
    }
  }
  const image = new PhotonImage(px, size, size);
  const bytes = image.get_bytes_jpeg(80);
  image.free();
  return bytes;
}

/** Table → { name → { type, notnull, dflt, pk } } of the migrated local D1 (read-only look). */
export function readSchema(persistTo) {
  const dir = path.join(persistTo, "v3/d1/miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const db = new DatabaseSync(path.join(dir, file), { readOnly: true });
  const tables = {};
  for (const { name } of db.prepare("select name from sqlite_master where type = 'table' and name not like '\\_%' escape '\\' and name not like 'sqlite%' and name <> 'd1_migrations'").all()) {
    tables[name] = Object.fromEntries(db.prepare(`select * from pragma_table_info('${name}')`).all().map((c) => [c.name, c]));
  }
  db.close();
  return tables;
}

/** Fills what the generator did not set: NOT NULL columns without default get a type-shaped value. */
function completeRow(columns, row) {
  const out = {};
  for (const [name, col] of Object.entries(columns)) {
    if (name in row) out[name] = row[name];
    else if (col.notnull && col.dflt_value === null && !(col.pk && /INT/i.test(col.type))) {
      out[name] = /INT|REAL|NUM/i.test(col.type) ? 0 : "";
    }
  }
  return out;
}

class Inserter {
  constructor(db, schema) {
    this.db = db;
    this.schema = schema;
    this.pending = [];
    this.counts = {};
    this.skipped = new Set();
  }
  has(table) {
    return Boolean(this.schema[table]);
  }
  async add(table, rows) {
    const columns = this.schema[table];
    if (!columns) {
      this.skipped.add(table);
      return;
    }
    const full = rows.map((r) => completeRow(columns, r));
    const names = Object.keys(full[0] ?? {});
    // D1 caps one statement near 100 KB: chunk by size.
    let chunk = [];
    let size = 0;
    const flush = () => {
      if (!chunk.length) return;
      this.pending.push(`insert into "${table}" (${names.map((n) => `"${n}"`).join(",")}) values ${chunk.join(",")}`);
      chunk = [];
      size = 0;
    };
    for (const r of full) {
      const tuple = `(${names.map((n) => sqlLiteral(r[n])).join(",")})`;
      if (size + tuple.length > 90_000) flush();
      chunk.push(tuple);
      size += tuple.length;
    }
    flush();
    this.counts[table] = (this.counts[table] ?? 0) + rows.length;
    if (this.pending.length >= 40) await this.flush();
  }
  async flush() {
    const statements = this.pending.splice(0).map((s) => this.db.prepare(s));
    if (statements.length) await this.db.batch(statements);
  }
}

/** First table whose name matches, among those that exist. */
const findTable = (schema, ...patterns) => patterns.map((p) => Object.keys(schema).find((t) => p.test(t))).find(Boolean) ?? null;
const pick = (columns, ...names) => names.find((n) => columns && n in columns) ?? null;

async function generateTenant(ins, schema, t) {
  const { code, members, messages, photos, sessions } = t;
  const r = prng(code.charCodeAt(0) * 65536 + code.charCodeAt(1) * 256 + code.charCodeAt(2));
  const salt = Buffer.from("bench-salt-00001");
  const passwordHash = `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${salt.toString("hex")}$${pbkdf2Sync(BENCH_PASSWORD, salt, PBKDF2_ITERATIONS, 32, "sha256").toString("hex")}`;
  const profileCols = schema.profiles ?? {};
  const batch = 2000;
  for (let start = 0; start < members; start += batch) {
    const m = [];
    const p = [];
    for (let i = start; i < Math.min(members, start + batch); i++) {
      const id = memberId(code, i);
      const no = memberNo(code, i);
      const created = NOW - Math.floor(r() * 720) * DAY - i;
      const lastAccess = NOW - Math.floor(r() * 2000) * 60_000 - i;
      const email = `bench${i}@${code.toLowerCase()}.example`;
      m.push({ id, project_code: code, email, password_hash: passwordHash, simple_code: no, referral_code: `${code}R${String(i).padStart(8, "0")}`, status: "active", created_at: created, last_login_at: lastAccess });
      const row = {
        member_id: id, project_code: code, simple_code: no, nickname: `${WORDS[i % WORDS.length]} ${code}${i}`,
        introduction: words(r, 6 + Math.floor(r() * 20)), avator: `/media/${avatarKey(code, i)}`, qualify: 1, blur: 0, blocked: 0,
        multi_gender: 1 + (i % 6), gender_locked: 1, look_for: Math.floor(r() * 7), kyc_status: i % 10 === 0 ? 1 : 0,
        birthday: `${1970 + (i % 35)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
        latitude: +(25 + r() * 20).toFixed(5), longitude: +(100 + r() * 40).toFixed(5), language: LANGS[i % 4],
        page_views: Math.floor(r() * 5000), last_access: lastAccess, last_chat_at: i < messages ? NOW - i * 1000 : null,
        email_hash: sha256(email).slice(0, 32), created_at: created, updated_at: lastAccess,
      };
      if ("zodiac_sign" in profileCols) row.zodiac_sign = null;
      p.push(Object.fromEntries(Object.entries(row).filter(([k]) => k in profileCols)));
    }
    await ins.add("members", m);
    await ins.add("profiles", p);
  }
  const s = [];
  for (let i = 0; i < Math.min(sessions, members); i++) {
    s.push({ id: `s${code}${String(i).padStart(20, "0")}`, member_id: memberId(code, i), project_code: code, token_hash: sha256(sessionToken(code, i)), created_at: NOW - DAY, expires_at: NOW + 3650 * DAY });
  }
  await ins.add("sessions", s);

  // Chat messages: the public chatroom of the tenant (feature tables: skipped until they exist).
  const chatTable = findTable(schema, /^chat_?room_?messages$/, /^chat_?messages$/, /chat.*message/);
  if (chatTable) {
    const c = schema[chatTable];
    const roomCol = pick(c, "chatroom_id", "id_chatroom", "room_id", "chatroom");
    const memberCol = pick(c, "member_id", "sender_member_id", "from_member_id");
    const noCol = pick(c, "member_no", "simple_code", "from_member_no", "sender_member_no");
    const textCol = pick(c, "message", "content", "body", "text");
    const timeCol = pick(c, "date_add", "created_at", "sent_at");
    const updatedCol = pick(c, "date_udp", "updated_at");
    for (let start = 0; start < messages; start += 5000) {
      const rows = [];
      for (let i = start; i < Math.min(messages, start + 5000); i++) {
        const sender = Math.floor(r() * members);
        const row = { project_code: code };
        if (roomCol) row[roomCol] = t.publicRoom;
        if (memberCol) row[memberCol] = memberId(code, sender);
        if (noCol) row[noCol] = memberNo(code, sender);
        if (textCol) row[textCol] = words(r, 3 + Math.floor(r() * 12));
        if (timeCol) row[timeCol] = NOW - (messages - i) * 5000;
        if (updatedCol) row[updatedCol] = row[timeCol] ?? NOW;
        if ("request_id" in c) row.request_id = `bench-${i}`;
        rows.push(row);
      }
      await ins.add(chatTable, rows);
    }
  } else ins.skipped.add("chat messages");

  // Photos: one album per photographer, photos spread over the first members.
  const albumTable = findTable(schema, /^albums$/);
  const photoTable = findTable(schema, /^album_photos$/, /^photos$/, /photo/);
  if (albumTable && photoTable) {
    const a = schema[albumTable];
    const ph = schema[photoTable];
    const owners = Math.min(members, Math.max(1, Math.floor(photos / 10)));
    const albums = [];
    for (let i = 0; i < owners; i++) {
      const row = { project_code: code, member_id: memberId(code, i), title: `album ${i}`, created_at: NOW - i * 60_000, updated_at: NOW - i * 60_000 };
      if (pick(a, "id_album")) row.id_album = t.albumBase + i;
      else if (pick(a, "id")) row.id = t.albumBase + i;
      albums.push(Object.fromEntries(Object.entries(row).filter(([k]) => k in a)));
    }
    await ins.add(albumTable, albums);
    for (let start = 0; start < photos; start += 5000) {
      const rows = [];
      for (let i = start; i < Math.min(photos, start + 5000); i++) {
        const owner = i % owners;
        const row = { project_code: code, member_id: memberId(code, owner), id_album: t.albumBase + owner, album_id: t.albumBase + owner,
          file_path: `/media/${photoKey(code, i)}`, file: `/media/${photoKey(code, i)}`, media_key: photoKey(code, i), created_at: NOW - i * 1000, updated_at: NOW - i * 1000 };
        rows.push(Object.fromEntries(Object.entries(row).filter(([k]) => k in ph)));
      }
      await ins.add(photoTable, rows);
    }
  } else ins.skipped.add("photos");
}

/**
 * Seeds every tenant in `tenants` into `persistTo` and uploads the shared avatar and photo images.
 * Returns what was written per table and which kinds of rows were skipped (their tables do not exist yet).
 */
export async function seedTenants({ configPath, persistTo, tenants }) {
  const schema = readSchema(persistTo);
  const { env, dispose } = await getPlatformProxy({ configPath, persist: { path: path.join(persistTo, "v3") } });
  try {
    const ins = new Inserter(env.DB, schema);
    for (const t of tenants) {
      const started = Date.now();
      for (let i = 0; i < AVATARS; i++) {
        await env.MEDIA.put(avatarKey(t.code, i), jpeg(i + 1, 300), { httpMetadata: { contentType: "image/jpeg" } });
        await env.MEDIA.put(photoKey(t.code, i), jpeg(i + 101, 600), { httpMetadata: { contentType: "image/jpeg" } });
      }
      await generateTenant(ins, schema, t);
      await ins.flush();
      log(`tenant ${t.code}: ${JSON.stringify(ins.counts)} in ${Date.now() - started} ms`);
      ins.counts = {};
    }
    return { skipped: [...ins.skipped] };
  } finally {
    await dispose();
  }
}
