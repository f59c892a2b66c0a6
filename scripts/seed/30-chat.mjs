// Chat: public chatroom history with threads and reactions, a few private messages and a
// one-to-one conversation for the demo member, and presence so the side list is not empty.
import { createRandom, pick } from "./random.mjs";

// Mirrors worker/contract/chat.ts (seeds run as plain Node modules).
const PUBLIC_CHATROOM_ID = "velvetPublicChatroom000000000001";
const directChatroomId = (a, b) => `dm-${[a, b].sort()[0]}-${[a, b].sort()[1]}`;

const LINES = [
  "Good evening everyone! Anyone going to the munch on Saturday?",
  "土曜日のミーティング、参加します！",
  "First time here, a little nervous but happy to say hi 👋",
  "Reminder: safewords are not optional. Check in with your partners tonight.",
  "有人对绳艺工作坊感兴趣吗？下周末开课。",
  "Just finished a long rope session, aftercare tea time ☕",
  "今天的夜景真美，大家晚安。",
  "Looking for recommendations on beginner-friendly books about protocol.",
  "Who else loves rainy nights and slow conversations?",
  "Welcome to all the newbies this week — ask anything, we don't bite (unless asked).",
  "Photography meetup idea: portraits in the park, consent forms included 📷",
  "Finally got my avatar approved, hello world!",
];
const REPLIES = ["Count me in!", "Welcome!", "So true 🙏", "いいですね！", "同意！", "Love this", "DM me for details", "Same here"];
const EMOJIS = ["❤️", "🔥", "😂", "👍", "😮"];

export async function seed(ctx) {
  const { env, project, members } = ctx;
  if (members.length < 6) return;
  const random = createRandom(505);
  const now = Date.now();
  const statements = [];
  // Ids are chosen here so threads, reactions and reminders can refer to them; they continue above any
  // messages already stored (browser tests seed a tenant other journeys have posted in).
  let id = (await env.DB.prepare("select coalesce(max(id_chatroom_message), 0) as n from chat_messages").first())?.n ?? 0;
  const firstId = id + 1;
  const start = now - 6 * 3_600_000;
  for (let i = 0; i < 40; i++) {
    id++;
    const author = members[1 + Math.floor(random() * (members.length - 1))];
    const at = start + i * 8 * 60_000;
    statements.push(
      env.DB.prepare(
        `insert into chat_messages (id_chatroom_message, project_code, chatroom_id, member_id, member_no, request_id, message, payload, is_private, date_add, date_udp)
         values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
      ).bind(id, project, PUBLIC_CHATROOM_ID, author.id, author.memberNo, `seed-${id}`, LINES[i % LINES.length], JSON.stringify({ type: "text", content: LINES[i % LINES.length] }), at, at),
    );
    // Threads with M coins for their authors, and reactions.
    const replies = i % 4 === 0 ? 1 + Math.floor(random() * 3) : 0;
    for (let r = 0; r < replies; r++) {
      const replier = pick(random, members.filter((m) => m.id !== author.id));
      statements.push(
        env.DB.prepare("insert into chat_threads (project_code, id_chatroom_message, member_id, message, is_private, date_add) values (?, ?, ?, ?, 0, ?)").bind(project, id, replier.id, pick(random, REPLIES), at + (r + 1) * 60_000),
        env.DB.prepare("insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values (?, ?, 'mcoin', 1, 'replyReceived', ?, ?)").bind(project, author.id, `${id}:${replier.id}`, at),
      );
    }
    statements.push(env.DB.prepare("update chat_messages set thread_count = ? where id_chatroom_message = ?").bind(replies, id));
    if (random() < 0.5) {
      const reactor = pick(random, members.filter((m) => m.id !== author.id));
      statements.push(
        env.DB.prepare("insert or ignore into chat_reactions (project_code, id_chatroom_message, member_id, type, react_emoji, date_add) values (?, ?, ?, 'emoji', ?, ?)").bind(project, id, reactor.id, pick(random, EMOJIS), at + 30_000),
      );
    }
    statements.push(env.DB.prepare("update profiles set last_chat_at = ? where member_id = ?").bind(at, author.id));
  }
  // Private messages to the demo member: one accepted conversation, one waiting in the requests tray.
  const demo = members[0];
  const friend = members[3];
  const stranger = members[7];
  const privateLines = [
    [friend, demo, "Hey, loved your post in the public chat. Coffee this week?"],
    [demo, friend, "Sure! Thursday evening works for me."],
    [friend, demo, "Perfect, see you then 😊"],
  ];
  statements.push(
    env.DB.prepare("insert into follows (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?) on conflict do nothing").bind(project, demo.id, friend.id, now - 86_400_000),
  );
  for (const [from, to, text] of privateLines) {
    id++;
    const at = now - (60 - (id - firstId)) * 60_000;
    statements.push(
      env.DB.prepare(
        `insert into chat_messages (id_chatroom_message, project_code, chatroom_id, member_id, member_no, request_id, message, payload, is_private, to_member_id, to_member_no, date_add, date_udp)
         values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
      ).bind(id, project, directChatroomId(from.memberNo, to.memberNo), from.id, from.memberNo, `seed-${id}`, text, JSON.stringify({ type: "text", content: text }), to.id, to.memberNo, at, at),
    );
  }
  id++;
  statements.push(
    env.DB.prepare(
      `insert into chat_messages (id_chatroom_message, project_code, chatroom_id, member_id, member_no, request_id, message, payload, is_private, to_member_id, to_member_no, date_add, date_udp)
       values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    ).bind(id, project, directChatroomId(stranger.memberNo, demo.memberNo), stranger.id, stranger.memberNo, `seed-${id}`, "Hi! We have not met yet — may I say hello?", JSON.stringify({ type: "text", content: "Hi! We have not met yet — may I say hello?" }), demo.id, demo.memberNo, now - 20 * 60_000, now - 20 * 60_000),
    env.DB.prepare("insert into chat_message_requests (project_code, member_id, from_member_id, status, created_at, updated_at) values (?, ?, ?, 'pending', ?, ?)").bind(project, demo.id, stranger.id, now - 20 * 60_000, now - 20 * 60_000),
    env.DB.prepare("insert into chat_connections (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)").bind(project, demo.id, friend.id, now - 86_400_000),
    env.DB.prepare("insert into chat_reminders (project_code, member_id, id_chatroom_message, title, description, remind_at, created_at) values (?, ?, ?, ?, ?, ?, ?)").bind(project, demo.id, firstId, "Munch on Saturday", "Reply to the thread about the munch", Date.parse(`${new Date(now).toISOString().slice(0, 10)}T18:00:00.000Z`), now),
  );
  // Recently active members for the public-chat side list.
  for (const m of members.slice(0, 12)) {
    statements.push(env.DB.prepare("insert or replace into chat_presence (member_id, project_code, online, last_seen_at) values (?, ?, 0, ?)").bind(m.id, project, now - Math.floor(random() * 6) * 3_600_000));
  }
  await env.DB.batch(statements);
}
