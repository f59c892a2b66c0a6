// Moderation demo data (README Decisions "Moderation"): the demo member is an operator of SMP, and the queue holds
// one open case (two reports with reasons) and one unqualified mark to decide.
export async function seed(ctx) {
  const { env, project, members } = ctx;
  const [demo] = members;
  const target = members[20];
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare("insert or ignore into operators (project_code, member_id, granted_by, created_at) values (?, ?, null, ?)").bind(project, demo.id, now),
    env.DB.prepare("insert or ignore into reports (project_code, member_id, target_member_id, reason, created_at) values (?, ?, ?, ?, ?)")
      .bind(project, members[4].id, target.id, "Keeps messaging after I said no", now - 3_600_000),
    env.DB.prepare("insert or ignore into reports (project_code, member_id, target_member_id, reason, created_at) values (?, ?, ?, ?, ?)")
      .bind(project, members[9].id, target.id, "Pushy in the public chat", now - 1_800_000),
    env.DB.prepare(
      "insert or ignore into unqualified_reports (id_profile, reporter_id, created_at, weight) select id_profile, ?, ?, 0.5 from profiles where member_id = ?",
    ).bind(members[11].id, now - 900_000, members[25].id),
  ]);
}
