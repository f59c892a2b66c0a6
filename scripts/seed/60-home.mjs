// Home and AI room demo data: two finished AI images in the demo member's gallery (kycStatus 9) and a
// couple of feedback notes for operators. Banners, visitors, guestbook, flame and reminders come from
// the profiles, social and chat seeds; the dashboard reads them all.
import { PhotonImage } from "@cf-wasm/photon/node";

const PROMPTS = ["a velvet rope coiled on an old wooden chair, soft window light", "a candle lit dungeon corridor in purple tones"];
const PALETTES = [
  [[186, 84, 140], [92, 70, 170]],
  [[120, 60, 160], [200, 120, 90]],
];

/** A deterministic mid-tone gradient with soft discs, like the local generator in worker/features/ai. */
function render(index) {
  const size = 512;
  const [from, to] = PALETTES[index];
  const pixels = new Uint8Array(size * size * 4);
  const discs = [0, 1, 2, 3].map((k) => ({ x: 80 + ((k * 137 + index * 61) % 360), y: 90 + ((k * 89 + index * 113) % 330), r: 50 + k * 18, shade: k % 2 ? 34 : -30 }));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size);
      let light = 0;
      for (const d of discs) {
        const dist = Math.hypot(x - d.x, y - d.y);
        if (dist < d.r) light += d.shade * (1 - dist / d.r);
      }
      const i = (y * size + x) * 4;
      for (let c = 0; c < 3; c++) pixels[i + c] = Math.max(40, Math.min(215, Math.round(from[c] * (1 - t) + to[c] * t + light)));
      pixels[i + 3] = 255;
    }
  }
  const image = new PhotonImage(pixels, size, size);
  const bytes = image.get_bytes_jpeg(85);
  image.free();
  return bytes;
}

export async function seed(ctx) {
  const { env, project, members } = ctx;
  const demo = members[0];
  const now = Date.now();
  const statements = [];
  for (let i = 0; i < PROMPTS.length; i++) {
    const key = `${project}/${demo.memberNo}/ai/seedai${i}.jpg`;
    await env.MEDIA.put(key, render(i), { httpMetadata: { contentType: "image/jpeg" } });
    const file = `SeedAiImage${String(i + 1).padStart(13, "0")}.jpg`;
    const at = now - (PROMPTS.length - i) * 3_600_000;
    statements.push(
      env.DB.prepare(
        "insert into ai_images (project_code, member_id, prompt, file, status, media_key, blur, provider, created_at, ready_at) values (?, ?, ?, ?, 'ready', ?, 0, 'local', ?, ?)",
      ).bind(project, demo.id, PROMPTS[i], file, key, at, at + 4_000),
    );
  }
  statements.push(
    env.DB.prepare("insert into feedback (project_code, member_id, message, created_at) values (?, ?, ?, ?)").bind(project, members[3].id, "Could the roulette have a custom list?", now - 86_400_000),
    env.DB.prepare("insert into feedback (project_code, member_id, message, created_at) values (?, ?, ?, ?)").bind(project, members[5].id, "Love the photo review, please add more photos.", now - 7_200_000),
  );
  await env.DB.batch(statements);
}
