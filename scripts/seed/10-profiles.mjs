// Profiles demo data: zodiac signs, contact handles, photos (banners) with ratings, preferences, visitors
// and hourly activity for the seeded members. Keys follow worker/contract/media.ts and media-serve's SAFE_KEY.
import { createRandom, pick } from "./random.mjs";
import { putWithRendition } from "./renditions.mjs";

const ZODIAC = [
  [120, "aquarius"], [219, "pisces"], [321, "aries"], [420, "taurus"], [521, "gemini"], [621, "cancer"],
  [723, "leo"], [823, "virgo"], [923, "libra"], [1023, "scorpio"], [1122, "sagittarius"], [1222, "capricorn"],
];
function zodiacOf(birthday) {
  const [, m, d] = birthday.split("-").map(Number);
  let sign = "capricorn";
  for (const [start, name] of ZODIAC) if (m * 100 + d >= start) sign = name;
  return sign;
}

/** A landscape "photo" (RGBA): soft diagonal bands in mid tones so the §5 graphic check keeps it pickable. */
function photoPixels(seed, width, height) {
  const pixels = new Uint8Array(width * height * 4);
  const hue = (seed * 47) % 360;
  const base = [
    Math.round(130 + 70 * Math.cos((hue * Math.PI) / 180)),
    Math.round(120 + 60 * Math.cos(((hue + 120) * Math.PI) / 180)),
    Math.round(130 + 70 * Math.cos(((hue + 240) * Math.PI) / 180)),
  ];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const band = Math.sin((x + y * 1.5) / (18 + (seed % 7) * 4)) * 30;
      const i = (y * width + x) * 4;
      pixels[i] = Math.min(215, Math.max(45, base[0] + band));
      pixels[i + 1] = Math.min(215, Math.max(45, base[1] + band / 2));
      pixels[i + 2] = Math.min(215, Math.max(45, base[2] - band));
      pixels[i + 3] = 255;
    }
  }
  return pixels;
}

export async function seed(ctx) {
  const { env, project, members } = ctx;
  const random = createRandom(303);
  const now = Date.now();
  const statements = [];

  const profiles = await env.DB.prepare("select member_id, birthday from profiles where project_code = ?").bind(project).all();
  for (const row of profiles.results) {
    if (row.birthday) statements.push(env.DB.prepare("update profiles set zodiac_sign = ? where member_id = ?").bind(zodiacOf(row.birthday), row.member_id));
  }

  const characterRows = await env.DB.prepare("select id_character from characters where project_code = '*' order by id_character").all();
  const characterIds = characterRows.results.map((r) => r.id_character);
  const languages = ["en", "ja", "zh-CN", "zh-TW"];

  let bannerId = 0;
  const banners = [];
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    statements.push(
      env.DB.prepare(
        "update profiles set language = coalesce(language, ?), twitter_id = ?, skype_id = ?, telegram_id = ? where member_id = ?",
      ).bind(pick(random, languages), random() < 0.4 ? `velvet_${m.memberNo}` : "", random() < 0.25 ? `live:${m.memberNo}` : "", random() < 0.3 ? `@v${m.memberNo}` : "", m.id),
    );

    // Preferences: 3-7 each.
    const count = 3 + Math.floor(random() * 5);
    const chosen = new Set();
    while (chosen.size < count) chosen.add(pick(random, characterIds));
    for (const idCharacter of chosen) {
      statements.push(
        env.DB.prepare("insert or ignore into user_characters (project_code, member_id, id_character, created_at) values (?, ?, ?, ?)").bind(
          project, m.id, idCharacter, now - Math.floor(random() * 30) * 86_400_000,
        ),
      );
    }

    // Photos: 0-2 each, one in six members has none.
    const photos = i % 6 === 5 ? 0 : 1 + Math.floor(random() * 2);
    for (let p = 0; p < photos; p++) {
      const width = 600;
      const height = pick(random, [400, 450, 600, 750]);
      const photo = await putWithRendition(env, {
        project, memberNo: m.memberNo, memberId: m.id, kind: "photo", pixels: photoPixels(i * 3 + p, width, height), width, height, quality: 80,
        createdAt: now - (i * 3 + p) * 3_600_000,
      });
      statements.push(photo.upload);
      bannerId++;
      banners.push({ id: bannerId, owner: m.id });
      statements.push(
        env.DB.prepare(
          "insert into banners (project_code, member_id, member_no, image, blur_image, pickable, width, height, url, blur, created_at) values (?, ?, ?, ?, ?, 1, ?, ?, '', ?, ?)",
        ).bind(project, m.id, m.memberNo, photo.url, photo.renditionUrl, width, height, random() < 0.1 ? 1 : 0, now - (i * 3 + p) * 3_600_000),
      );
    }

    // Visitors: a few other members looked at this profile, newest first.
    const visits = 2 + Math.floor(random() * 5);
    for (let v = 0; v < visits; v++) {
      const visitor = pick(random, members);
      if (visitor.id === m.id) continue;
      statements.push(
        env.DB.prepare(
          `insert into visitors (project_code, member_id, visitor_id, visit_count, date_upd) values (?, ?, ?, 1, ?)
           on conflict (member_id, visitor_id) do update set visit_count = visit_count + 1`,
        ).bind(project, m.id, visitor.id, now - Math.floor(random() * 96) * 3_600_000 - v * 60_000),
      );
    }

    // Activity by hour: a peak around a personal favourite hour.
    const peak = Math.floor(random() * 24);
    for (let h = 0; h < 24; h++) {
      const distance = Math.min(Math.abs(h - peak), 24 - Math.abs(h - peak));
      const value = Math.max(0, Math.round(12 - distance * 2 + random() * 3));
      if (value > 0) {
        statements.push(
          env.DB.prepare("insert or replace into action_stats (member_id, project_code, action_hour, action_count) values (?, ?, ?, ?)").bind(m.id, project, h, value),
        );
      }
    }
  }

  // Ratings: members rate some photos of others (one per member per photo).
  for (const m of members.slice(1)) {
    for (let r = 0; r < 3; r++) {
      const banner = pick(random, banners);
      if (!banner || banner.owner === m.id) continue;
      const rating = 1 + Math.floor(random() * 5);
      statements.push(
        env.DB.prepare("insert or ignore into banner_ratings (project_code, id_banner, member_id, rating, created_at) values (?, ?, ?, ?, ?)").bind(project, banner.id, m.id, rating, now),
      );
    }
  }
  statements.push(
    env.DB.prepare(
      `update banners set rating_sum = coalesce((select sum(rating) from banner_ratings r where r.id_banner = banners.id_banner), 0),
        rating_count = (select count(*) from banner_ratings r where r.id_banner = banners.id_banner) where project_code = ?`,
    ).bind(project),
  );

  for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
}
