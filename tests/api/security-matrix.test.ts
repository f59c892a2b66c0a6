import { beforeAll, describe, expect, it } from "vitest";
import { createWorkerApp } from "../../worker/worker-app";
import { expectFailure, type Member, type Reply } from "../support/client";
import {
  buildFixture,
  mountedRoutes,
  versionRoutes,
  privateRoutes,
  publicRoutes,
  rowCounts,
  settledCounts,
  send,
  type Fixture,
} from "../support/route-matrix";

/**
 * The authorization matrix, driven by the Hono app's own route table: every private route is called as
 * anonymous (401), as another member, as a member of another tenant, with a cookie from another origin,
 * and as its rightful owner. Denied calls change nothing; no answer to anyone but the owner carries the
 * owner's secrets (phone, mobile, address, safeword, email, token).
 */
const app = createWorkerApp();
const routes = mountedRoutes(app);
const privates = routes.filter((r) => r.visibility === "private");

let fixture: Fixture;
beforeAll(async () => {
  fixture = await buildFixture();
});

function expectNoSecrets(reply: Reply, f: Fixture, who: string, route: string) {
  const text = JSON.stringify(reply.body);
  for (const secret of f.secrets) {
    if (text.includes(secret)) throw new Error(`${route} leaked an owner secret to ${who}: ${secret}`);
  }
  expect(text).not.toMatch(/\n\s+at |Error: /);
}

function expectDenied(reply: Reply, allowed: number[], route: string, who: string) {
  if (!allowed.includes(reply.status)) throw new Error(`${route} as ${who}: expected one of ${allowed}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  expectFailure(reply, reply.status);
}

describe("route table", () => {
  it("finds the mounted routes", () => {
    expect(privates.length).toBeGreaterThan(3);
    expect(routes.some((r) => r.key === "POST /public/core/sessions/:project")).toBe(true);
  });

  it("has an expectation for every mounted route (a new route without one fails here)", () => {
    const missing = routes.filter((r) => !(r.visibility === "private" ? privateRoutes[r.key] : publicRoutes[r.key])).map((r) => r.key);
    expect(missing, `add these routes to tests/support/route-matrix.ts`).toEqual([]);
  });

  it("mounts the same routes under /api/v6 and /api/v7", () => {
    expect([...versionRoutes(app, 6)].sort()).toEqual([...versionRoutes(app, 7)].sort());
  });

  it("has no stale expectations for routes that are not mounted", () => {
    const mounted = new Set(routes.map((r) => r.key));
    const stale = [...Object.keys(privateRoutes), ...Object.keys(publicRoutes)].filter((k) => !mounted.has(k));
    expect(stale).toEqual([]);
  });
});

describe("authorization matrix", () => {
  for (const route of privates) {
    it(route.key, async () => {
      const entry = privateRoutes[route.key];
      if (!entry) throw new Error(`${route.key} has no entry in tests/support/route-matrix.ts`);
      const f = fixture;
      const spec = await entry.request(f);
      const owner: Member = spec.as ?? f.owner;
      const isWrite = route.method !== "GET" && route.method !== "HEAD";

      const before = await settledCounts();

      // Anonymous: always 401 in the envelope.
      const anonymous = await send(route, spec, null);
      expectDenied(anonymous, [401], route.key, "anonymous");
      expectNoSecrets(anonymous, f, "anonymous", route.key);

      // A forged token for the owner's account: 100003.
      const forged = await send(route, spec, null, { headers: { "X-Access-Token": "f".repeat(32), "X-Member-ID": owner.memberId } });
      expectFailure(forged, 401, "100003");

      // A cookie-authenticated write from another origin: refused before the handler runs.
      if (isWrite) {
        const cookie = `velvet_session=${owner.memberId}.${owner.token}`;
        const crossSite = await send(route, spec, null, { headers: { Cookie: cookie, Origin: "https://evil.example" } });
        expectDenied(crossSite, [403], route.key, "cross-origin cookie");
        const noOrigin = await send(route, spec, null, { headers: { Cookie: cookie } });
        expectDenied(noOrigin, [403], route.key, "cookie without origin");
      }

      const deniedWho: [string, Member][] = [];
      if ((entry.other ?? "denied") === "denied") deniedWho.push(["another member", f.other]);
      if ((entry.foreign ?? "denied") === "denied") deniedWho.push(["another tenant", f.foreign]);
      for (const [who, member] of deniedWho) {
        const reply = await send(route, spec, member);
        expectDenied(reply, [401, 403, 404], route.key, who);
        expectNoSecrets(reply, f, who, route.key);
      }
      expect(await rowCounts(), `${route.key}: a denied call changed stored rows`).toEqual(before);

      // Allowed for others: their own view, never the owner's secrets.
      if (entry.other === "allowed") {
        const reply = await send(route, spec, await f.fresh());
        expect(reply.status, `${route.key} as another member: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
        expectNoSecrets(reply, f, "another member", route.key);
      }
      if (entry.foreign === "allowed") {
        const reply = await send(route, spec, await f.fresh("ABC"));
        expect(reply.status, `${route.key} as another tenant: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
        expectNoSecrets(reply, f, "another tenant", route.key);
      }

      // The rightful owner succeeds.
      const reply = await send(route, spec, owner);
      const status = entry.status ?? 200;
      if (reply.status !== status) throw new Error(`${route.key} as owner: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
      if (status === 200) expect(reply.body.returnCode).toBe("000000");
      await entry.check?.(reply, f);
    });
  }
});
