// Tasks and albums: tasks from several members, the demo member's missions in every state
// (P, F to review, C), an open album and a keyed album (key "velvet-rope") whose photos are stored scrambled, with a
// random seed sealed under SEAL_SECRET, as private media (/private-media, kind `keyed`).
import { PhotonImage } from "@cf-wasm/photon/node";
import { hashPassword } from "../../worker/lib/crypto.ts";
import { scramblePixels } from "../../worker/contract/scramble.ts";
import { newScrambleSeed, sealSeed } from "../../worker/features/albums/album-seal.ts";
import { createRandom } from "./random.mjs";

const TASKS = [
  ["Morning gratitude", "Write three things you are grateful for every morning this week, before checking your phone. Send a photo of the page at the end of the week."],
  ["Posture practice", "Practise standing posture for five minutes twice a day. Note how your breathing changes and what you find hard."],
  ["Learn a knot", "Learn the single-column tie from a safe tutorial, practise on a pillow, and describe what you learned about tension and safety shears."],
  ["Safeword check-in", "Talk with a partner or friend about safewords and check-ins. Write a short summary of what you agreed and why it matters."],
  ["朝の散歩", "一週間、毎朝20分散歩して、気づいたことを一言ずつ記録してください。"],
  ["整理房间", "花一个小时把房间整理干净，拍一张前后对比照，写下你的感受。"],
];
const DEMO_TASKS = [
  ["Tea ceremony", "Prepare tea with full attention: warm the pot, measure, wait, serve. Describe each step and how it felt to slow down."],
  ["Letter to yourself", "Write a letter to yourself one year from now about the limits and hopes you have today."],
];

function photo(width, height, hue, random) {
  const pixels = new Uint8Array(width * height * 4);
  const [r, g, b] = hue;
  const cx = width * (0.3 + random() * 0.4), cy = height * (0.3 + random() * 0.4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x - cx, y - cy) / Math.max(width, height);
      const wave = 0.5 + 0.4 * Math.cos(d * 14) * Math.cos((x / width) * 3);
      const i = (y * width + x) * 4;
      pixels[i] = Math.min(220, Math.max(40, r * wave + 30));
      pixels[i + 1] = Math.min(220, Math.max(40, g * wave + 30));
      pixels[i + 2] = Math.min(220, Math.max(40, b * wave + 30));
      pixels[i + 3] = 255;
    }
  }
  return pixels;
}

function encode(pixels, width, height, lossless) {
  const image = new PhotonImage(pixels, width, height);
  const bytes = lossless ? image.get_bytes() : image.get_bytes_jpeg(85);
  image.free();
  return bytes;
}

export async function seed(ctx) {
  const { env, project, members } = ctx;
  if (members.length < 8) return;
  const random = createRandom(606);
  const now = Date.now();
  const demo = members[0];
  const statements = [];
  const at = (hoursAgo) => now - hoursAgo * 3_600_000;

  // Tasks: ids fixed so missions can refer to them.
  // Continue above existing ids: the seed may run into a tenant that already has tasks (browser tests).
  const taskBase = (await env.DB.prepare("select coalesce(max(id_task), 0) as n from tasks").first())?.n ?? 0;
  let idTask = taskBase;
  const taskOwner = new Map();
  for (const [i, [subject, description]] of TASKS.entries()) {
    idTask++;
    const owner = members[1 + i];
    taskOwner.set(idTask, owner);
    statements.push(env.DB.prepare("insert into tasks (id_task, project_code, member_id, subject, description, created_at) values (?, ?, ?, ?, ?, ?)").bind(idTask, project, owner.id, subject, description, at(72 - i * 6)));
  }
  for (const [i, [subject, description]] of DEMO_TASKS.entries()) {
    idTask++;
    taskOwner.set(idTask, demo);
    statements.push(env.DB.prepare("insert into tasks (id_task, project_code, member_id, subject, description, created_at) values (?, ?, ?, ?, ?, ?)").bind(idTask, project, demo.id, subject, description, at(30 - i * 5)));
  }
  // The demo member's missions: one in progress, one confirmed; two of theirs taken up by others (one to review).
  // Task numbers count from the first task seeded above.
  const missions = [
    [1, demo, "P", "Day one: coffee, sunshine, an old friend's message.", "", ""],
    [2, demo, "C", "Five minutes is longer than it sounds. Breathing slowed down by day three.", "Will continue next week", "Lovely progress — keep it up."],
    [7, members[8], "F", "Warmed the pot, waited, poured slowly. I noticed how impatient I usually am.", "Photo follows", ""],
    [8, members[9], "P", "", "", ""],
  ];
  for (const [i, [task, member, status, description, remark, reviewRemark]] of missions.entries()) {
    statements.push(
      env.DB.prepare(
        "insert into missions (project_code, id_task, member_id, reviewer_member_id, description, remark, review_remark, cover, status, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?)",
      ).bind(project, taskBase + task, member.id, taskOwner.get(taskBase + task).id, description, remark, reviewRemark, status, at(20 - i), at(10 - i)),
    );
  }

  // Albums: an open one and a keyed one for the demo member, and a keyed one of another member granted to the demo.
  const albumBase = (await env.DB.prepare("select coalesce(max(id_album), 0) as n from albums").first())?.n ?? 0;
  const albums = [
    { id: albumBase + 1, owner: demo, title: "Rope garden", key: "", hues: [[200, 120, 160], [120, 160, 210], [170, 200, 120]] },
    { id: albumBase + 2, owner: demo, title: "After dark", key: "velvet-rope", hues: [[210, 90, 140], [150, 110, 220]] },
    { id: albumBase + 3, owner: members[1], title: "Private portraits", key: "noir-silk", hues: [[220, 160, 90]], grant: demo },
  ];
  let idPhoto = (await env.DB.prepare("select coalesce(max(id_photo), 0) as n from album_photos").first())?.n ?? 0;
  for (const album of albums) {
    const keyed = album.key.length > 0;
    const seed = keyed ? newScrambleSeed() : null;
    statements.push(
      env.DB.prepare("insert into albums (id_album, project_code, member_id, title, key_hash, seed_sealed, created_at) values (?, ?, ?, ?, ?, ?, ?)").bind(
        album.id,
        project,
        album.owner.id,
        album.title,
        keyed ? await hashPassword(album.key) : null,
        keyed ? await sealSeed(env.SEAL_SECRET, seed) : null,
        at(48 - (album.id - albumBase)),
      ),
    );
    if (keyed) statements.push(env.DB.prepare("insert into album_key_attempts (id_album, project_code, window_start, attempts) values (?, ?, 0, 0)").bind(album.id, project));
    if (album.grant) statements.push(env.DB.prepare("insert into album_grants (id_album, member_id, project_code, created_at) values (?, ?, ?, ?)").bind(album.id, album.grant.id, project, at(40)));
    for (const hue of album.hues) {
      idPhoto++;
      const width = 480, height = 360;
      const pixels = photo(width, height, hue, random);
      const key = keyed
        ? `${project}/${album.owner.memberNo}/keyed/seedalbum${String(idPhoto).padStart(3, "0")}.png`
        : `${project}/${album.owner.memberNo}/album/seedalbum${String(idPhoto).padStart(3, "0")}.jpg`;
      const bytes = keyed ? encode(scramblePixels(pixels, width, height, seed), width, height, true) : encode(pixels, width, height, false);
      await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: keyed ? "image/png" : "image/jpeg" } });
      statements.push(
        env.DB.prepare("insert into album_uploads (media_key, id_album, project_code, member_id, scrambled, created_at) values (?, ?, ?, ?, ?, ?)").bind(key, album.id, project, album.owner.id, keyed ? 1 : 0, at(40)),
        env.DB.prepare("insert into album_photos (id_photo, id_album, project_code, member_id, file_path, media_key, description, created_at) values (?, ?, ?, ?, ?, ?, '', ?)").bind(
          idPhoto, album.id, project, album.owner.id, `${keyed ? "/private-media/" : "/media/"}${key}`, key, at(40 - idPhoto),
        ),
      );
    }
  }
  await env.DB.batch(statements);
}
