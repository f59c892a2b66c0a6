// Social demo data: geohashes for the seeded places, follows, friendships, favourites,
// guestbook entries, a flame holder, a block and a timed mute, and the demo member's notifications.
import ngeohash from "ngeohash";

const HOUR = 3_600_000;

export async function seed(ctx) {
  const { env, project, members } = ctx;
  if (members.length < 12) return;
  const now = Date.now();
  const demo = members[0];
  const others = members.slice(1);
  const stmts = [];
  const run = (sql, ...args) => stmts.push(env.DB.prepare(sql).bind(...args));

  // Nearby works through geohash cells: give every seeded location its server-side geohash. The demo members opt in
  // to being shown (as cells, README "Cells, not positions") so the demo maps show someone; real members start off.
  for (const m of members) {
    if (m.latitude == null || m.longitude == null) continue;
    run("update profiles set geohash = ?, show_position = 1 where member_id = ?", ngeohash.encode(m.latitude, m.longitude, 9), m.id);
  }

  // Follows: the demo member follows eight members; eleven follow back or follow the demo; a ring among the rest.
  const follow = (from, to, hoursAgo) => run("insert or ignore into follows (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)", project, from.id, to.id, now - hoursAgo * HOUR);
  for (const [i, m] of others.slice(0, 8).entries()) follow(demo, m, 200 - i * 7);
  for (const [i, m] of others.slice(1, 12).entries()) follow(m, demo, 150 - i * 9);
  for (const [i, m] of others.entries()) follow(m, others[(i + 3) % others.length], 300 - i * 5);

  // Friends: two accepted, one incoming request to the demo member, one request from the demo member.
  const friend = (a, b, status, hoursAgo) =>
    run("insert or ignore into friendships (project_code, requester_id, addressee_id, status, created_at, updated_at) values (?, ?, ?, ?, ?, ?)", project, a.id, b.id, status, now - hoursAgo * HOUR, now - hoursAgo * HOUR + HOUR);
  friend(others[0], demo, "accepted", 120);
  friend(demo, others[1], "accepted", 96);
  friend(others[2], demo, "requested", 20);
  friend(demo, others[3], "requested", 10);

  run("insert or ignore into favourites (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)", project, demo.id, others[0].id, now - 50 * HOUR);
  run("insert or ignore into favourites (project_code, member_id, target_member_id, created_at) values (?, ?, ?, ?)", project, demo.id, others[2].id, now - 40 * HOUR);

  // Guestbook: six members wrote to the demo member (two still unread); the demo member replied to one.
  const lines = [
    "Loved your introduction — coffee at the next munch?",
    "ご挨拶に来ました。よろしくお願いします！",
    "你好，看到你也喜欢绳艺，可以交流一下吗？",
    "謝謝你上次的建議，收穫很多。",
    "Your safeword idea in the guide was spot on. Thank you!",
    "Welcome to the community ✨",
  ];
  lines.forEach((message, i) => {
    const at = now - (60 - i * 9) * HOUR;
    run(
      "insert into guestbook_entries (project_code, owner_member_id, author_member_id, message, created_at, read_at) values (?, ?, ?, ?, ?, ?)",
      project, demo.id, others[i].id, message, at, i < 4 ? at + HOUR : null,
    );
  });
  run("insert into guestbook_entries (project_code, owner_member_id, author_member_id, message, created_at, read_at) values (?, ?, ?, ?, ?, ?)",
    project, others[0].id, demo.id, "Yes! See you Saturday.", now - 50 * HOUR, now - 49 * HOUR);
  others.slice(6, 14).forEach((m, i) => {
    run("insert into guestbook_entries (project_code, owner_member_id, author_member_id, message, created_at, read_at) values (?, ?, ?, ?, ?, ?)",
      project, others[(i + 9) % others.length].id, m.id, "Nice to meet you here.", now - (30 + i) * HOUR, null);
  });

  // The flame: passed from one member to the current holder.
  run("insert into flame_passes (project_code, holder_member_id, from_member_id, created_at) values (?, ?, ?, ?)", project, others[6].id, null, now - 72 * HOUR);
  run("insert into flame_passes (project_code, holder_member_id, from_member_id, created_at) values (?, ?, ?, ?)", project, others[4].id, others[6].id, now - 6 * HOUR);

  // Safety: the demo member blocks the last member for good and mutes another for a week.
  const last = members[members.length - 1];
  run("insert or ignore into blocks (project_code, member_id, target_member_id, created_at, expires_at) values (?, ?, ?, ?, ?)", project, demo.id, last.id, now - 5 * HOUR, null);
  run("insert or ignore into mutes (project_code, member_id, target_member_id, created_at, expires_at) values (?, ?, ?, ?, ?)", project, demo.id, members[members.length - 2].id, now - 5 * HOUR, now + 7 * 24 * HOUR);
  run("insert or ignore into social_settings (member_id, project_code, email_alerts) values (?, ?, 1)", demo.id, project);

  // Notifications for the demo member, stored as type + params like notify() does.
  const notice = (type, actor, hoursAgo, params = {}, read = false) =>
    run("insert into notifications (project_code, member_id, type, actor_member_id, params, created_at, read_at) values (?, ?, ?, ?, ?, ?, ?)",
      project, demo.id, type, actor.id, JSON.stringify(params), now - hoursAgo * HOUR, read ? now - hoursAgo * HOUR + 600_000 : null);
  notice("follow", others[1], 140, {}, true);
  notice("follow", others[2], 131, {}, true);
  notice("friendAccepted", others[1], 95, {}, true);
  notice("guestbook", others[4], 24, { excerpt: lines[4].slice(0, 80) });
  notice("guestbook", others[5], 15, { excerpt: lines[5].slice(0, 80) });
  notice("friendRequest", others[2], 20);
  notice("flame", others[6], 70, { action: "approved" }, true);

  await env.DB.batch(stmts);
}
