import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { runScheduledJobs } from "../../worker/scheduled";
import { MAIL_OUTBOX_LIFETIME } from "../../worker/features/privacy/retention";
import { DAY } from "../../worker/lib/time";
import { call, expectFailure, expectOk, signUp } from "../support/client";

/**
 * The daily job (worker/scheduled.ts) deletes exactly the rows whose lifetime is over and keeps the live ones
 * (README Decisions "What is kept, and for how long"). Run directly with the job's time, as the cron does.
 */
const ids = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql).bind(...binds).all<{ id: string | number }>()).results.map((r) => String(r.id)).sort();
const utcMidnight = (ms: number) => Date.parse(`${new Date(ms).toISOString().slice(0, 10)}T00:00:00.000Z`);

describe("the daily purge", () => {
  it("deletes spent sessions, reset links, codes, old mail, past reminders and past search marks; keeps the rest", async () => {
    const at = Date.now();
    const today = new Date(at).toISOString().slice(0, 10);
    const yesterday = new Date(at - DAY).toISOString().slice(0, 10);
    const session = (id: string, expiresAt: number, endedAt: number | null) =>
      env.DB.prepare("insert into sessions (id, member_id, project_code, token_hash, created_at, expires_at, ended_at) values (?, 'mPurge', 'SMP', ?, ?, ?, ?)")
        .bind(id, `hash-${id}`, at - DAY, expiresAt, endedAt);
    const reset = (id: string, expiresAt: number, usedAt: number | null) =>
      env.DB.prepare("insert into password_resets (token_hash, member_id, project_code, expires_at, used_at) values (?, 'mPurge', 'SMP', ?, ?)").bind(id, expiresAt, usedAt);
    const otp = (id: string, expiresAt: number) => env.DB.prepare("insert into otp_codes (member_id, code_hash, expires_at) values (?, 'h', ?)").bind(id, expiresAt);
    const mail = (subject: string, createdAt: number) =>
      env.DB.prepare("insert into mail_outbox (project_code, to_email, subject, body, created_at) values ('SMP', 'purge@example.com', ?, 'b', ?)").bind(subject, createdAt);
    const reminder = (title: string, remindAt: number) =>
      env.DB.prepare("insert into chat_reminders (project_code, member_id, title, remind_at, created_at) values ('SMP', 'mPurge', ?, ?, ?)").bind(title, remindAt, at - DAY);
    const search = (keyword: string, day: string) =>
      env.DB.prepare("insert into keyword_searches (project_code, keyword, member_id, day) values ('SMP', ?, 'mPurge', ?)").bind(keyword, day);
    await env.DB.batch([
      session("s-expired", at - 1, null),
      session("s-expires-now", at, null),
      session("s-ended", at + DAY, at - 1000),
      session("s-live", at + DAY, null),
      reset("r-used", at + 1000, at - 1000),
      reset("r-expired", at - 1, null),
      reset("r-live", at + 60_000, null),
      otp("o-expired", at - 1),
      otp("o-live", at + 60_000),
      mail("m-old", at - MAIL_OUTBOX_LIFETIME - 1),
      mail("m-week", at - MAIL_OUTBOX_LIFETIME + 60_000),
      mail("m-new", at),
      reminder("rem-yesterday", utcMidnight(at) - 1),
      reminder("rem-today", utcMidnight(at)),
      reminder("rem-tomorrow", utcMidnight(at) + DAY + 1),
      search("kw-yesterday", yesterday),
      search("kw-today", today),
    ]);
    const member = await signUp();

    await runScheduledJobs(env, at);

    expect(await ids("select id from sessions where member_id = 'mPurge'")).toEqual(["s-live"]);
    expect(await ids("select token_hash as id from password_resets where member_id = 'mPurge'")).toEqual(["r-live"]);
    expect(await ids("select member_id as id from otp_codes where member_id like 'o-%'")).toEqual(["o-live"]);
    expect(await ids("select subject as id from mail_outbox where to_email = 'purge@example.com'")).toEqual(["m-new", "m-week"]);
    expect(await ids("select title as id from chat_reminders where member_id = 'mPurge'")).toEqual(["rem-today", "rem-tomorrow"]);
    expect(await ids("select keyword as id from keyword_searches where member_id = 'mPurge'")).toEqual(["kw-today"]);
    // A live session keeps working through the purge.
    expectOk(await call("POST", "/private/core/sessions/ticket", { as: member, body: {} }));
  });

  it("removes a session the moment after it ends, so the ended token stays refused", async () => {
    const member = await signUp();
    expectOk(await call("POST", "/private/core/sessions/expire", { as: member, body: {} }));
    expect(await ids("select id from sessions where member_id = ?", member.memberId)).toHaveLength(1);
    await runScheduledJobs(env, Date.now() + 1);
    expect(await ids("select id from sessions where member_id = ?", member.memberId)).toEqual([]);
    expectFailure(await call("POST", "/private/core/sessions/ticket", { as: member, body: {} }), 401, "100003");
  });

  it("still runs when another feature's job fails first", async () => {
    await env.DB.prepare("insert into otp_codes (member_id, code_hash, expires_at) values ('o-after-failure', 'h', 1)").run();
    // The market job's table is away: the purge after it must run anyway; the run still reports the failure.
    await env.DB.prepare("alter table market_listings rename to market_listings_away").run();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(runScheduledJobs(env, Date.now())).rejects.toThrow("scheduled jobs failed");
      expect(log).toHaveBeenCalledWith(expect.stringContaining("scheduled job failed"));
    } finally {
      await env.DB.prepare("alter table market_listings_away rename to market_listings").run();
      log.mockRestore();
    }
    expect(await ids("select member_id as id from otp_codes where member_id = 'o-after-failure'")).toEqual([]);
  });
});
