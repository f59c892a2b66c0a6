// Demo members with varied roles, introductions, birthdays, places and generated avatars.
import { hashPassword } from "../../worker/lib/crypto.ts";
import { createRandom, pick } from "./random.mjs";
import { putWithRendition } from "./renditions.mjs";

const NICKNAMES = [
  "Velvet Demo", "Lady Noir", "Sir Ember", "Kitten Mei", "Ronin", "Mistress Aoi", "Pet Lumi", "Captain Rope", "Sakura Lace",
  "Iron Duke", "Moonlit Fox", "Silk & Steel", "Bratty Bee", "Master Kenji", "Ruby Whip", "Quiet Storm", "Little Wren",
  "Baron Vale", "Hana Chains", "Obsidian", "Tease Mira", "Shibari Sam", "Domme Lin", "Puppy Taro", "Velour", "Nocturne",
  "Rosa Candle", "Knot Theory", "Yuki Frost", "Crimson Ash", "Sweet Sub Jo", "Raven Queen", "Lotus", "Marquis", "Plum", "Echo",
];
const INTROS = [
  "Rope enthusiast and tea lover. Safe, sane and consensual always — let's talk limits over coffee before anything else.",
  "夜型の人間です。信頼関係を大切にしています。まずはゆっくりお話ししましょう。",
  "喜欢绳艺和摄影，寻找志同道合的朋友。先聊天，再见面。",
  "慢熱型，重視溝通與界線。喜歡音樂、攝影和長談。",
  "Switch with a soft spot for protocol and long conversations. New to the city, looking for munches and friends.",
  "Experienced and patient. Aftercare is not optional. Message me with what you are curious about.",
  "Here to learn. Gentle guidance appreciated, and I always bring snacks to the munch.",
];
const PLACES = [
  [25.033, 121.565], [35.6895, 139.6917], [22.3193, 114.1694], [31.2304, 121.4737], [1.3521, 103.8198], [37.7749, -122.4194], [51.5072, -0.1276],
];
const PALETTES = [[224, 85, 156], [185, 140, 255], [99, 214, 154], [255, 159, 67], [90, 170, 255], [240, 200, 90]];

/** A soft radial gradient with a ring (RGBA, 300x300): mid-tone colours so the §5 graphic check qualifies it. */
function avatarPixels(seed, random) {
  const size = 300;
  const [r, g, b] = pick(random, PALETTES);
  const pixels = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = x - size / 2, dy = y - size / 2;
      const d = Math.sqrt(dx * dx + dy * dy) / (size / 2);
      const ring = Math.abs(d - 0.55) < 0.06 ? 40 : 0;
      const shade = 0.55 + 0.35 * Math.cos(d * 2 + seed);
      const i = (y * size + x) * 4;
      pixels[i] = Math.min(220, Math.max(40, r * shade + ring));
      pixels[i + 1] = Math.min(220, Math.max(40, g * shade + ring));
      pixels[i + 2] = Math.min(220, Math.max(40, b * shade + ring));
      pixels[i + 3] = 255;
    }
  }
  return pixels;
}

export async function seed(ctx) {
  const { env, project } = ctx;
  const random = createRandom(42);
  const now = Date.now();
  const statements = [];
  for (let i = 0; i < NICKNAMES.length; i++) {
    const isDemo = i === 0;
    const id = `mseed${String(i).padStart(19, "0")}`;
    const memberNo = String(20000000 + i * 7919);
    const email = isDemo ? "demo@velvet.example" : `member${i}@velvet.example`;
    const passwordHash = await hashPassword(isDemo ? "velvet-demo" : `velvet-member-${i}`);
    const multiGender = isDemo ? 1 : 1 + Math.floor(random() * 6);
    const lookFor = Math.floor(random() * 7);
    const [lat, lng] = pick(random, PLACES);
    const latitude = +(lat + (random() - 0.5) * 0.2).toFixed(5);
    const longitude = +(lng + (random() - 0.5) * 0.2).toFixed(5);
    const birthday = `${1975 + Math.floor(random() * 28)}-${String(1 + Math.floor(random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`;
    const pixels = avatarPixels(i, random);
    const createdAt = now - Math.floor(random() * 90) * 86_400_000;
    const avatar = await putWithRendition(env, { project, memberNo, memberId: id, kind: "avatar", pixels, width: 300, height: 300, createdAt });
    const lastAccess = now - Math.floor(random() * 72) * 3_600_000;
    statements.push(
      env.DB.prepare(
        "insert into members (id, project_code, email, password_hash, simple_code, referral_code, status, created_at, last_login_at) values (?, ?, ?, ?, ?, ?, 'active', ?, ?)",
      ).bind(id, project, email, passwordHash, memberNo, `SEED${String(i).padStart(4, "0")}`, createdAt, lastAccess),
      env.DB.prepare(
        `insert into profiles (member_id, project_code, simple_code, nickname, introduction, avator, avator_blur, qualify, multi_gender, gender_locked, look_for,
          kyc_status, birthday, latitude, longitude, language, page_views, last_access, last_chat_at, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, 1, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        id, project, memberNo, NICKNAMES[i], pick(random, INTROS), avatar.url, avatar.renditionUrl, multiGender, lookFor,
        isDemo ? 9 : random() < 0.4 ? 1 : 0, birthday, latitude, longitude, null, Math.floor(random() * 400), lastAccess,
        lastAccess - 60_000, createdAt, now,
      ),
      avatar.upload,
    );
    ctx.members.push({ id, memberNo, email, nickname: NICKNAMES[i], multiGender, latitude, longitude });
  }
  await env.DB.batch(statements);
}
