import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, fetchWorker, signUp } from "../support/client";
import { openSocket, socketHeaders, type TestSocket } from "../support/socket";

/** Headers of the API, media and socket doors, and the session cookie's attributes (SECURITY.md). */
const workerFetch = (request: Request) =>
  (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default.fetch(request);

function expectApiHeaders(headers: Headers, what: string) {
  const csp = headers.get("Content-Security-Policy") ?? "";
  expect(csp, what).toContain("default-src 'none'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).not.toContain("unsafe-inline");
  expect(headers.get("Strict-Transport-Security"), what).toMatch(/max-age=\d{7,}/);
  expect(headers.get("X-Content-Type-Options"), what).toBe("nosniff");
  expect(headers.get("X-Frame-Options"), what).toBe("DENY");
  expect(headers.get("Referrer-Policy"), what).toBe("strict-origin-when-cross-origin");
  expect(headers.get("Content-Type"), what).toContain("application/json");
}

describe("API security headers", () => {
  it("are on successes, refusals, unknown paths and both API versions", async () => {
    const member = await signUp();
    const replies = [
      ["success", await call("POST", "/private/core/sessions/ticket", { as: member, body: {} })],
      ["401", await call("POST", "/private/core/sessions/ticket", { body: {} })],
      ["400", await call("POST", "/public/core/sessions/SMP", { body: "{" })],
      ["404", await call("GET", "/public/nope")],
      ["v6", await call("GET", "/public/nope", { version: 6 })],
    ] as const;
    for (const [what, reply] of replies) expectApiHeaders(reply.headers, what);
    const outside = await fetchWorker("/api/v9/anything");
    expectApiHeaders(outside.headers, "unknown version");
    expect(outside.status).toBe(404);
  });

  it("never answers an API error with HTML or a stack trace", async () => {
    for (const path of ["/api/v7/private/x", "/api/v7/public/core/sessions/SMP", "/api/%ff", "/api/v7/public/core/members/SMP/forget/password"]) {
      const response = await fetchWorker(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
      const text = await response.text();
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(() => JSON.parse(text), path).not.toThrow();
      expect(text).not.toMatch(/<html|\n\s+at /i);
    }
  });
});

describe("media headers", () => {
  it("serves stored images as inert, typed, same-origin resources and refuses keys it did not write", async () => {
    const key = "SMP/12345678/photo/abcdefabcdefabcdefabcdef.jpg";
    await env.MEDIA.put(key, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
    const response = await fetchWorker(`/media/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    await response.arrayBuffer();
    for (const bad of ["SMP/1/photo/x.svg", "SMP/1/photo/x.html", "smp/1/photo/x.jpg", "SMP/1/other/x.jpg", "SMP%2F1%2Fphoto%2F..%2Fx.jpg"]) {
      const refused = await fetchWorker(`/media/${bad}`);
      expect(refused.status, bad).toBe(404);
      expect(refused.headers.get("Content-Type"), bad).toContain("application/json");
      await refused.arrayBuffer();
    }
  });
});

describe("sockets", () => {
  it("upgrade to 101 untouched by the header middleware", async () => {
    const member = await signUp();
    const ticket = expectOk(await call("POST", "/private/core/sessions/ticket", { as: member, body: { audience: "socket" } })).ticket;
    const inbox = `SMP~${member.memberId}`;
    const response = await fetchWorker(`/parties/member-inbox/${inbox}`, { headers: socketHeaders(ticket) });
    expect(response.status).toBe(101);
    expect(response.headers.get("Content-Security-Policy")).toBeNull();
    // The 101 names our protocol only: the ticket is never echoed.
    expect(response.headers.get("Sec-WebSocket-Protocol")).toBe("velvet.v1");
    response.webSocket!.accept();
    response.webSocket!.close();
    const socket = (await openSocket(member, "member-inbox", inbox)) as TestSocket;
    expect(socket.socket).toBeTruthy();
    socket.close();
  });

  it("refuse a forged identity header and a ticket of the wrong audience", async () => {
    const member = await signUp();
    const api = expectOk(await call("POST", "/private/core/sessions/ticket", { as: member, body: { audience: "api" } })).ticket;
    const wrongAudience = await fetchWorker(`/parties/member-inbox/SMP~${member.memberId}`, { headers: socketHeaders(api) });
    expect(wrongAudience.status).toBe(401);
    const forged = await fetchWorker(`/parties/member-inbox/SMP~${member.memberId}`, {
      headers: { Upgrade: "websocket", "x-velvet-member": JSON.stringify({ memberId: member.memberId, memberNo: member.memberNo, projectCode: "SMP", kycStatus: 1 }), "x-partykit-props": "{}" },
    });
    expect(forged.status).toBe(401);
  });
});

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Lax, path /, and not Secure on local http", async () => {
    const member = await signUp();
    const reply = await call("POST", "/public/core/sessions/SMP", { body: { username: member.email, password: member.password } });
    const cookie = reply.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/velvet_session=[^;]+/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("is Secure over https", async () => {
    const member = await signUp();
    const response = await workerFetch(
      new Request("https://velvet.example/api/v7/public/core/sessions/SMP", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: member.email, password: member.password }),
      }),
    );
    expect(response.status).toBe(200);
    const cookie = response.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/velvet_session=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    await response.arrayBuffer();
  });

  it("authenticates reads from anywhere but writes only from our own origin", async () => {
    const member = await signUp();
    const cookie = `velvet_session=${member.memberId}.${member.token}`;
    const read = await call("GET", "/private/nope", { headers: { Cookie: cookie, Origin: "https://evil.example" } });
    expectFailure(read, 404);
    const sameOrigin = await call("POST", "/private/core/sessions/ticket", { body: {}, headers: { Cookie: cookie, Origin: "http://velvet.test" } });
    expectOk(sameOrigin);
    const fetchSite = await call("POST", "/private/core/sessions/ticket", { body: {}, headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" } });
    expectOk(fetchSite);
    const refused: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "http://velvet.test.evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      {},
    ];
    for (const headers of refused) {
      const reply = await call("POST", "/private/core/sessions/ticket", { body: {}, headers: { Cookie: cookie, ...headers } });
      expectFailure(reply, 403, "403000");
    }
  });

  it("is cleared on expire and then no longer opens anything", async () => {
    const member = await signUp();
    const cookie = `velvet_session=${member.memberId}.${member.token}`;
    const reply = await call("POST", "/private/core/sessions/expire", { headers: { Cookie: cookie, Origin: "http://velvet.test" } });
    expectOk(reply);
    expect(reply.headers.get("Set-Cookie") ?? "").toMatch(/velvet_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
    expectFailure(await call("POST", "/private/core/sessions/ticket", { body: {}, headers: { Cookie: cookie, Origin: "http://velvet.test" } }), 401, "100003");
  });
});
