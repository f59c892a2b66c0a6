import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { imageBytes, midTone } from "./profiles-helpers";
import { block } from "./social-support";

// Creator profiles (README Decisions "DNA pairing and creator profiles"; SECURITY.md "DNA pairing and creator
// profiles"): written by the owner only, http(s) links only, at most 10, logos through the media pipeline, read
// under the profile's own visibility rules.

const save = (as: Member | null, of: Member, body: unknown) => call("PUT", `/private/core/creator-profiles/${of.memberId}`, { as, body });
const read = (as: Member | null, of: Pick<Member, "memberNo">, project = "SMP") =>
  call("GET", `/${as ? "private" : "public"}/core/creator-profiles/${project}/${of.memberNo}`, { as });
const patch = async (m: Member, body: Record<string, unknown>) => expectOk(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body }));

async function upload(m: Member, type: string) {
  const data = new FormData();
  data.set("file", new File([imageBytes(400, 200, midTone) as BlobPart], "logo.png", { type: "image/png" }));
  data.set("type", type);
  return expectOk(await call("POST", `/private/core/files/${m.projectCode}/${m.memberId}`, { as: m, body: data }));
}

/** A member with a filled creator profile (one link with a logo, one without). */
async function creator(tagText = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`) {
  const m = await signUp();
  await patch(m, { nickname: `Creator ${tagText}` });
  const logo = await upload(m, "logo");
  const body = {
    introduction: `I rig and teach ${tagText}`,
    websiteUrl: `https://creator-${tagText}.example.com`,
    company: `Knot Studio ${tagText}`,
    title: `Lead rigger ${tagText}`,
    location: `Osaka ${tagText}`,
    links: [
      { url: `https://shop-${tagText}.example.com/`, title: `Shop ${tagText}`, logo: logo.url },
      { url: `http://blog-${tagText}.example.com/`, title: "Blog" },
    ],
  };
  const saved = expectOk(await save(m, m, body));
  return { m, body, logo, saved, tagText };
}

describe("creator profiles: what works", () => {
  it("the owner saves and reads it back; the logo is their own upload, re-encoded small under /media", async () => {
    const { m, body, logo, saved } = await creator();
    expect(saved).toMatchObject({ simpleCode: m.memberNo, company: body.company, title: body.title, location: body.location, websiteUrl: body.websiteUrl });
    expect(saved.links).toEqual([
      { url: body.links[0]!.url, title: body.links[0]!.title, logo: logo.url, logoBlur: false },
      { url: body.links[1]!.url, title: "Blog", logo: "", logoBlur: false },
    ]);
    expect(logo.url).toMatch(/^\/media\/SMP\/\d+\/logo\/[A-Za-z0-9_-]+\.jpg$/);
    expect(Math.max(logo.width, logo.height)).toBeLessThanOrEqual(256);
    const served = await fetchWorker(logo.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(expectOk(await read(m, m))).toEqual(saved);
    // Saving again replaces it (an empty profile keeps an empty row).
    expect(expectOk(await save(m, m, {})).links).toEqual([]);
  });

  it("another member reads it with the original logo; a visitor with the blurred rendition; none is null", async () => {
    const { m, logo, saved } = await creator();
    const other = await signUp();
    await patch(other, { nickname: "Other" });
    expect(expectOk(await read(other, m))).toEqual(saved);
    const asVisitor = expectOk(await read(null, m));
    expect(asVisitor.company).toBe(saved.company);
    expect(asVisitor.links[0].logoBlur).toBe(true);
    expect(asVisitor.links[0].logo).toMatch(/^\/media\/SMP\/\d+\/blur\//);
    expect(JSON.stringify(asVisitor)).not.toContain(logo.url);
    expect(expectOk(await read(other, other))).toBeNull();
  });
});

describe("creator profiles: what is refused", () => {
  it("links other than http(s) are a 400 envelope and nothing changes", async () => {
    const { m, saved } = await creator();
    const bad = ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd", "ftp://example.com/x", "//example.com", "example.com", " javascript:alert(1)", ""];
    for (const url of bad) expectFailure(await save(m, m, { links: [{ url, title: "x" }] }), 400, "400000");
    for (const websiteUrl of ["javascript:alert(1)", "data:text/html,x", "mailto:a@example.com"]) expectFailure(await save(m, m, { websiteUrl }), 400, "400000");
    expect(expectOk(await read(m, m))).toEqual(saved);
  });

  it("at most 10 links: 11 are refused", async () => {
    const m = await signUp();
    const links = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}`, title: `Link ${i}` }));
    expect(expectOk(await save(m, m, { links: links(10) })).links).toHaveLength(10);
    expectFailure(await save(m, m, { links: links(11) }), 400, "400000");
    expect(expectOk(await read(m, m)).links).toHaveLength(10);
  });

  it("a logo must be the owner's own logo upload: no remote address, no photo, no other member's logo", async () => {
    const { logo: theirs } = await creator();
    const other = await signUp();
    const photo = await upload(other, "photo");
    const own = await upload(other, "logo");
    for (const logo of ["https://evil.example.com/logo.png", "//evil.example.com/x.png", photo.url, theirs.url, "/media/SMP/1/logo/missing.jpg", "data:image/png;base64,AAAA"]) {
      expectFailure(await save(other, other, { links: [{ url: "https://example.com", logo }] }), 400, "400511");
    }
    expect(expectOk(await read(other, other))).toBeNull();
    expect(expectOk(await save(other, other, { links: [{ url: "https://example.com", logo: own.url }] })).links[0].logo).toBe(own.url);
  });

  it("unknown fields and long text are refused; only the owner writes (another member 403, a visitor 401)", async () => {
    const { m, saved } = await creator();
    expectFailure(await save(m, m, { company: "x", kycStatus: 1 }), 400);
    expectFailure(await save(m, m, { company: "x".repeat(101) }), 400);
    expectFailure(await save(m, m, { links: [{ url: "https://example.com", extra: 1 }] }), 400);
    expectFailure(await save(m, m, "{not json"), 400);
    const other = await signUp();
    expectFailure(await save(other, m, { company: "hijacked" }), 403);
    expectFailure(await call("PUT", `/private/core/creator-profiles/${m.memberId}`, { body: { company: "hijacked" } }), 401);
    expect(expectOk(await read(m, m))).toEqual(saved);
  });
});

describe("creator profiles: who may not see it", () => {
  it("a block either way, another tenant and an unknown member are not found", async () => {
    const { m, body } = await creator();
    const [blocked, blocker, foreign] = [await signUp(), await signUp(), await signUp("ABC")];
    await block(m, blocked);
    await block(blocker, m);
    for (const reply of [await read(blocked, m), await read(blocker, m), await read(foreign, m, "SMP"), await read(foreign, m, "ABC"), await read(null, m, "ABC")]) {
      expectFailure(reply, 404, "404000");
      expect(JSON.stringify(reply.body)).not.toContain(body.company);
    }
    expectFailure(await read(null, { memberNo: "999999999" }), 404);
  });

  it("a closed profile: nothing for visitors and members it is closed to; its owner's friends and follows see it", async () => {
    const { m, body, logo } = await creator();
    await patch(m, { closed: true });
    const [other, followed] = [await signUp(), await signUp()];
    for (const reply of [await read(null, m), await read(other, m)]) {
      expect(expectOk(reply)).toBeNull();
      const text = JSON.stringify(reply.body);
      for (const secret of [body.company, body.title, body.location, body.introduction, body.websiteUrl, body.links[0]!.url, logo.url.split("/").pop()!.replace(".jpg", "")]) expect(text).not.toContain(secret);
    }
    expectOk(await call("POST", `/private/core/follows/${followed.memberNo}`, { as: m }));
    expect(expectOk(await read(followed, m)).company).toBe(body.company);
  });

  it("a member who approves followers: a member not accepted gets the visitor's view (blurred logo)", async () => {
    const { m, logo } = await creator();
    expectOk(await call("PUT", `/private/core/follow-approval/${m.memberId}`, { as: m, body: { approveFollowers: true } }));
    const fan = await signUp();
    expectOk(await call("POST", `/private/core/follows/${m.memberNo}`, { as: fan }));
    const seen = expectOk(await read(fan, m));
    expect(seen.links[0].logoBlur).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(logo.url);
    expectOk(await call("POST", `/private/core/follow-requests/${fan.memberNo}/accept`, { as: m }));
    expect(expectOk(await read(fan, m)).links[0].logo).toBe(logo.url);
  });

  it("the row goes with the account", async () => {
    const { m } = await creator();
    expectOk(await call("DELETE", `/private/core/members/${m.memberId}`, { as: m, body: { password: m.password } }));
    const row = await env.DB.prepare("select count(*) as n from creator_profiles where member_id = ?").bind(m.memberId).first<{ n: number }>();
    expect(row!.n).toBe(0);
  });
});
