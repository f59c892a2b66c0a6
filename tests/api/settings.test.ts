import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, login, signUp, uniqueEmail } from "../support/client";

/**
 * The Settings page (README Decisions "Settings in one place") reads and writes through these calls. Each block
 * is split into what works, what is refused, and who may not.
 */
describe("referral link", () => {
  it("gives the member their own code, and a sign-up through it joins their tenant and counts", async () => {
    const owner = await signUp("RFL");
    const mine = expectOk(await call("GET", `/private/core/members/${owner.memberId}/referral`, { as: owner }));
    expect(Object.keys(mine).sort()).toEqual(["referralCode", "referralCount"]);
    expect(mine.referralCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(mine.referralCount).toBe(0);

    const joined = expectOk(
      await call("POST", "/public/core/members/referral-signup", {
        body: { username: uniqueEmail("invited"), password: "correct horse battery", referralCode: mine.referralCode, adult: true },
      }),
    );
    expect(joined.projectCode).toBe("RFL");
    const after = expectOk(await call("GET", `/private/core/members/${owner.memberId}/referral`, { as: owner }));
    expect(after).toEqual({ referralCode: mine.referralCode, referralCount: 1 });
  });

  it("is the owner's alone: another member, another tenant and a visitor get nothing of it", async () => {
    const owner = await signUp();
    const code = expectOk(await call("GET", `/private/core/members/${owner.memberId}/referral`, { as: owner })).referralCode as string;
    const other = await signUp();
    const foreign = await signUp("ABC");
    for (const as of [other, foreign]) {
      const reply = await call("GET", `/private/core/members/${owner.memberId}/referral`, { as });
      expectFailure(reply, 403, "403000");
      expect(JSON.stringify(reply.body)).not.toContain(code);
    }
    expectFailure(await call("GET", `/private/core/members/${owner.memberId}/referral`), 401);
  });

  it("refuses an unknown code and a sign-up without the adult confirmation, creating nobody", async () => {
    const email = uniqueEmail("nobody");
    expectFailure(await call("POST", "/public/core/members/referral-signup", { body: { username: email, password: "correct horse battery", referralCode: "ZZZZZZZZ", adult: true } }), 404, "404101");
    expectFailure(await call("POST", "/public/core/members/referral-signup", { body: { username: email, password: "correct horse battery", referralCode: "", adult: true } }), 400);
    expectFailure(await login("SMP", email, "correct horse battery"), 401);
  });
});

describe("language and safe mode follow the member", () => {
  it("stores the chosen language and safe mode on the profile; the next login hands them to the new device", async () => {
    const member = await signUp();
    expect(member.safeMode).toBe(false);
    const saved = expectOk(await call("PATCH", `/private/core/profiles/${member.memberId}`, { as: member, body: { language: "ja", safeMode: true } }));
    expect(saved.language).toBe("ja");
    expect(saved.safeMode).toBe(true);

    const again = await login("SMP", member.email, member.password);
    const info = expectOk(again);
    expect(info.language).toBe("ja");
    expect(info.safeMode).toBe(true);
    // The login answer also sets the language cookie the pages read on every load (§1: stored choice beats the browser).
    expect(again.headers.get("Set-Cookie")).toContain("velvet_language=ja");
  });

  it("refuses a language outside the four and changes nothing", async () => {
    const member = await signUp();
    expectOk(await call("PATCH", `/private/core/profiles/${member.memberId}`, { as: member, body: { language: "zh-TW" } }));
    for (const language of ["fr", "JA-jp", 7, ""]) {
      expectFailure(await call("PATCH", `/private/core/profiles/${member.memberId}`, { as: member, body: { language } }), 400);
    }
    expect(expectOk(await call("GET", `/private/core/profiles/${member.memberId}`, { as: member })).language).toBe("zh-TW");
  });

  it("lets no one else change them", async () => {
    const member = await signUp();
    const other = await signUp();
    expectFailure(await call("PATCH", `/private/core/profiles/${member.memberId}`, { as: other, body: { language: "ja", safeMode: true } }), 403);
    const mine = expectOk(await call("GET", `/private/core/profiles/${member.memberId}`, { as: member }));
    expect(mine.language).toBeNull();
    expect(mine.safeMode).toBe(false);
  });
});

describe("contact, presence and alert settings", () => {
  it("saves who may message me and who sees me online, and e-mail alerts, for the caller only", async () => {
    const member = await signUp();
    const other = await signUp();
    const chat = expectOk(await call("PUT", "/private/sns/chat-settings", { as: member, body: { acceptFrom: "friends", presenceAudience: "nobody" } }));
    expect(chat).toEqual({ acceptFrom: "friends", acceptRoles: [], presenceAudience: "nobody" });
    expectOk(await call("PUT", "/private/core/social-settings", { as: member, body: { emailAlerts: true } }));

    // Another member's writes land on their own settings, never on mine.
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: other, body: { acceptFrom: "everyone", presenceAudience: "everyone" } }));
    expectOk(await call("PUT", "/private/core/social-settings", { as: other, body: { emailAlerts: false } }));
    expect(expectOk(await call("GET", "/private/sns/chat-settings", { as: member }))).toEqual(chat);
    expect(expectOk(await call("GET", "/private/core/social-settings", { as: member }))).toEqual({ emailAlerts: true });
  });

  it("refuses bad values with a 400 envelope and keeps the old ones", async () => {
    const member = await signUp();
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: member, body: { acceptFrom: "verified" } }));
    for (const body of [{ acceptFrom: "strangers" }, { presenceAudience: "all" }, { acceptRoles: [9] }]) {
      expectFailure(await call("PUT", "/private/sns/chat-settings", { as: member, body }), 400);
    }
    expectFailure(await call("PUT", "/private/core/social-settings", { as: member, body: { emailAlerts: "yes" } }), 400);
    expect(expectOk(await call("GET", "/private/sns/chat-settings", { as: member })).acceptFrom).toBe("verified");
    expect(expectOk(await call("GET", "/private/core/social-settings", { as: member }))).toEqual({ emailAlerts: false });
  });
});

describe("password change from settings", () => {
  it("keeps this device signed in, ends the others, and the new password is the one that works", async () => {
    const member = await signUp();
    const otherDevice = expectOk(await login("SMP", member.email, member.password));
    const otherHeaders = { "X-Access-Token": otherDevice.token, "X-Member-ID": otherDevice.memberId };

    expectFailure(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: member, body: { oldPassword: "not it at all", newPassword: "a brand new password" } }), 403, "403101");
    expectFailure(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: member, body: { oldPassword: member.password, newPassword: "short" } }), 400);
    expectOk(await call("GET", "/private/sns/chat-settings", { headers: otherHeaders }));

    expect(expectOk(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: member, body: { oldPassword: member.password, newPassword: "a brand new password" } }))).toEqual({ changed: true });
    expectOk(await call("GET", "/private/sns/chat-settings", { as: member }));
    expectFailure(await call("GET", "/private/sns/chat-settings", { headers: otherHeaders }), 401, "100003");
    expectFailure(await login("SMP", member.email, member.password), 401);
    expectOk(await login("SMP", member.email, "a brand new password"));
  });

  it("cannot be done to someone else", async () => {
    const member = await signUp();
    const other = await signUp();
    expectFailure(await call("PUT", `/private/core/members/password/${member.memberId}`, { as: other, body: { oldPassword: other.password, newPassword: "a brand new password" } }), 403);
    expectOk(await login("SMP", member.email, member.password));
  });
});

describe("blocked and muted lists", () => {
  it("lists my blocks and mutes and lifts them; nobody else can lift mine", async () => {
    const member = await signUp();
    const target = await signUp();
    const other = await signUp();
    const block = expectOk(await call("POST", "/private/core/blocks", { as: member, body: { targetMemberNo: target.memberNo } }));
    expectOk(await call("POST", "/private/core/mutes", { as: member, body: { targetMemberNo: other.memberNo } }));

    const blocks = expectOk(await call("GET", "/private/core/blocks?pageSize=30", { as: member }));
    expect(blocks.items.map((i: { profile: { simpleCode: string } }) => i.profile.simpleCode)).toEqual([target.memberNo]);
    const mutes = expectOk(await call("GET", "/private/core/mutes?pageSize=30", { as: member }));
    expect(mutes.items.map((i: { profile: { simpleCode: string } }) => i.profile.simpleCode)).toEqual([other.memberNo]);

    // Someone else deleting my block by its id changes nothing.
    const foreignTry = await call("DELETE", `/private/core/blocks/${block.idBlock}`, { as: other });
    expect(foreignTry.status).toBeGreaterThanOrEqual(400);
    expect(foreignTry.status).toBeLessThan(500);
    expect(expectOk(await call("GET", "/private/core/blocks?pageSize=30", { as: member })).items).toHaveLength(1);

    expectOk(await call("DELETE", `/private/core/blocks/${block.idBlock}`, { as: member }));
    expectOk(await call("DELETE", `/private/core/mutes/${other.memberNo}`, { as: member }));
    expect(expectOk(await call("GET", "/private/core/blocks?pageSize=30", { as: member })).items).toEqual([]);
    expect(expectOk(await call("GET", "/private/core/mutes?pageSize=30", { as: member })).items).toEqual([]);
  });
});
