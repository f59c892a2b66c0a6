import { env } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkerApp } from "../../worker/worker-app";
import { call, expectFailure, signUp, type Member, type Reply } from "../support/client";
import {
  buildFixture,
  mountedRoutes,
  paramNames,
  privateRoutes,
  publicRoutes,
  rowCounts,
  settledCounts,
  send,
  type Fixture,
  type MountedRoute,
  type RequestSpec,
} from "../support/route-matrix";

/**
 * Hostile input against every mounted route (property-based, fast-check): malformed JSON, wrong types,
 * missing and extra fields, huge strings, deep nesting, control characters, SQL- and HTML-looking text,
 * bad path params and bad tenant codes. Every answer is a §7 envelope — never a 5xx or a stack trace —
 * and refused input changes no stored row. Runs are bounded so `npm test` stays quick.
 */
const NUM_RUNS = 4;
const app = createWorkerApp();
const routes = mountedRoutes(app);

let fixture: Fixture;
beforeAll(async () => {
  fixture = await buildFixture();
});

const SQL_HTML = [
  "' OR 1=1 --",
  "'; DROP TABLE members; --",
  "1; DELETE FROM profiles",
  '" OR ""="',
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant to arrive as literal text
  "{{7*7}}${7*7}",
  "../../../etc/passwd",
  "%00%0d%0aSet-Cookie:x=1",
];
const CONTROL = ["\u0000", "a\u0000b", "\u0001\u0002\u001b[31m", "\r\n\r\n", "\ud800", "\u202eRTL", "\uffff", "\t\v\f"];

const hostileText = fc.oneof(fc.constantFrom(...SQL_HTML, ...CONTROL), fc.string({ unit: "binary", maxLength: 40 }));
/** Hostile text that is never a valid tenant code (three letters would be a real, if empty, tenant). */
const encodable = (v: string) => {
  try {
    encodeURIComponent(v);
    return true;
  } catch {
    return false; // a lone surrogate cannot be put in a URL at all
  }
};
const hostileParam = hostileText.filter((v) => !/^[A-Za-z]{3}$/.test(v) && encodable(v));
/** A value of the wrong JSON type for a field whose valid value is `original`. */
function wrongType(original: unknown) {
  const nested = fc.constant(JSON.parse("[".repeat(200) + "]".repeat(200)));
  const object = fc.dictionary(fc.constantFrom("a", "$gt", "__proto__", "constructor"), fc.constantFrom(1, "x", true));
  if (typeof original === "string") return fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 3 }), object, nested);
  if (typeof original === "number") return fc.oneof(fc.constantFrom("abc", "1e999", ""), fc.array(fc.integer(), { maxLength: 3 }), object, nested, fc.constantFrom(1e308, -1e308));
  if (typeof original === "boolean") return fc.oneof(fc.constantFrom("yes", "no", "1"), fc.integer({ min: 2 }), object, nested);
  if (Array.isArray(original)) return fc.oneof(fc.string(), fc.integer(), object);
  if (original && typeof original === "object") return fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer(), { maxLength: 3 }));
  return fc.oneof(fc.integer(), fc.string(), object);
}

const MALFORMED = ["{", '{"username":', "[1,2", "{'a':1}", "\u0000", "[".repeat(100_000), "[".repeat(50_000) + "]".repeat(50_000)];
// `null` is read as "no body" by worker/http/validate.ts, so it is only in the survival list below.
const TOP_LEVEL = [0, -1, "body", true, [], [{}]];
const BAD_TENANTS = ["SM", "SMPP", "12A", "S_P", "", "S%20P", "ŚMP", "SM\u0000", "smp;drop", "../SMP"];
const BAD_PARAMS = ["-1", "99999999999999999999999", "1.5", "NaN", " ", "..", "x".repeat(3000), "' OR 1=1 --", "<script>alert(1)</script>", "a\u0000b", "\u202eRTL", "__proto__", "constructor"];
/** 300,000 UTF-16 units (1.2 MB as UTF-8): over any field's bound and over the JSON body cap. */
const HUGE = "𝔁".repeat(150_000);
const HUGE_BODY_FILLER = "𝔁".repeat(300_000);

function ownerOf(route: MountedRoute, spec: RequestSpec, f: Fixture): Member | null {
  if (route.visibility === "public") return null;
  return spec.as ?? f.owner;
}

/** A §7 failure (or success) envelope with a 4xx status; never a 5xx, HTML page or stack trace. */
function expect4xx(reply: Reply, what: string) {
  const text = JSON.stringify(reply.body);
  if (reply.status < 400 || reply.status >= 500) throw new Error(`${what}: expected 4xx, got ${reply.status} ${text.slice(0, 400)}`);
  if (!/^\d{6}$/.test(String(reply.body.returnCode)) || typeof reply.body.returnMessage !== "string") throw new Error(`${what}: not an envelope: ${text.slice(0, 300)}`);
  if (/\n\s+at |Error: |<html/i.test(text)) throw new Error(`${what}: leaked internals: ${text.slice(0, 300)}`);
}
function expectNot5xx(reply: Reply, what: string) {
  const text = JSON.stringify(reply.body);
  if (reply.status >= 500 || reply.body.notJson !== undefined) throw new Error(`${what}: got ${reply.status} ${text.slice(0, 400)}`);
  if (!/^\d{6}$/.test(String(reply.body.returnCode))) throw new Error(`${what}: not an envelope: ${text.slice(0, 300)}`);
  if (/\n\s+at |<html/i.test(text)) throw new Error(`${what}: leaked internals: ${text.slice(0, 300)}`);
}

const entryOf = (route: MountedRoute) => (route.visibility === "private" ? privateRoutes[route.key] : publicRoutes[route.key]);
const hasBody = (route: MountedRoute) => !["GET", "HEAD", "DELETE"].includes(route.method);

describe("hostile input on every route", () => {
  for (const route of routes) {
    describe(route.key, () => {
      it("refuses bad path params and bad tenant codes with a 4xx, changing nothing", async () => {
        const entry = entryOf(route);
        if (!entry) throw new Error(`${route.key} has no entry in tests/support/route-matrix.ts`);
        const names = paramNames(route.path);
        if (!names.length) return;
        const spec = await entry.request(fixture);
        const who = ownerOf(route, spec, fixture);
        const before = await settledCounts();
        for (const name of names) {
          const values = name === "project" ? BAD_TENANTS : BAD_PARAMS;
          for (const value of values) {
            const reply = await send(route, spec, who, { params: { [name]: value } });
            // A param that collapses the path (e.g. "") may hit another route or none: still a 4xx envelope.
            expect4xx(reply, `${route.key} :${name}=${JSON.stringify(value.slice(0, 40))}`);
          }
          await fc.assert(
            fc.asyncProperty(hostileParam, async (value) => {
              const reply = await send(route, spec, who, { params: { [name]: value } });
              expect4xx(reply, `${route.key} :${name}=${JSON.stringify(value)}`);
            }),
            { numRuns: NUM_RUNS },
          );
        }
        expect(await rowCounts(), `${route.key}: bad params changed stored rows`).toEqual(before);
      });

      if (hasBody(route)) {
        it("refuses malformed JSON, wrong types, huge strings and deep nesting with a 4xx, changing nothing", async () => {
          const entry = entryOf(route)!;
          if (entry.noBody) return;
          const spec = await entry.request(fixture);
          if (spec.form) return; // multipart uploads: tests/api/security-uploads.test.ts
          const who = ownerOf(route, spec, fixture);
          const before = await settledCounts();
          for (const raw of MALFORMED) expect4xx(await send(route, spec, who, { rawBody: raw }), `${route.key} body ${JSON.stringify(raw.slice(0, 30))}`);
          for (const value of TOP_LEVEL) expect4xx(await send(route, spec, who, { body: JSON.stringify(value) }), `${route.key} body ${JSON.stringify(value)}`);
          expect4xx(await send(route, spec, who, { rawBody: JSON.stringify({ ...(spec.body as object), filler: HUGE_BODY_FILLER }) }), `${route.key} oversize body`);

          const body = spec.body;
          if (body && typeof body === "object" && !Array.isArray(body)) {
            for (const [field, original] of Object.entries(body)) {
              if (entry.freeFields?.includes(field)) continue;
              await fc.assert(
                fc.asyncProperty(wrongType(original), async (value) => {
                  const reply = await send(route, spec, who, { body: { ...body, [field]: value } });
                  expect4xx(reply, `${route.key} ${field}=${JSON.stringify(value).slice(0, 60)}`);
                }),
                { numRuns: NUM_RUNS },
              );
              if (typeof original === "string") {
                expect4xx(await send(route, spec, who, { body: { ...body, [field]: HUGE } }), `${route.key} huge ${field}`);
              }
              const deep = `{${Object.entries(body)
                .map(([k, v]) => `${JSON.stringify(k)}:${k === field ? "[".repeat(10_000) + "]".repeat(10_000) : JSON.stringify(v)}`)
                .join(",")}}`;
              expect4xx(await send(route, spec, who, { rawBody: deep }), `${route.key} deeply nested ${field}`);
            }
          }
          expect(await rowCounts(), `${route.key}: refused bodies changed stored rows`).toEqual(before);
        });

        it("survives missing fields, extra fields and SQL/HTML/control text without a 5xx or privilege change", async () => {
          const entry = entryOf(route)!;
          if (entry.noBody) return;
          const spec = await entry.request(fixture);
          if (spec.form) return;
          const who = ownerOf(route, spec, fixture);
          const body = spec.body;
          if (!body || typeof body !== "object" || Array.isArray(body)) return;
          for (const field of Object.keys(body)) {
            const { [field]: _dropped, ...rest } = body as Record<string, unknown>;
            expectNot5xx(await send(route, spec, who, { body: rest }), `${route.key} without ${field}`);
          }
          const owner = who ?? fixture.owner;
          const privileges = () =>
            env.DB.prepare("select m.project_code, m.status, p.kyc_status, p.qualify from members m join profiles p on p.member_id = m.id where m.id = ?")
              .bind(owner.memberId)
              .first();
          const privilegesBefore = await privileges();
          const extras = { kycStatus: 1, status: "active", projectCode: "ABC", memberId: fixture.other.memberId, isAdmin: true, qualify: true, constructor: { prototype: { polluted: true } } };
          expectNot5xx(await send(route, spec, who, { body: { ...extras, ...body } }), `${route.key} extra fields`);
          expectNot5xx(await send(route, spec, who, { body: null }), `${route.key} null body`);
          expectNot5xx(
            await send(route, spec, who, { rawBody: `{"__proto__":{"polluted":true},${JSON.stringify(body).slice(1)}` }),
            `${route.key} __proto__ field`,
          );
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          const stringFields = Object.entries(body).filter(([, v]) => typeof v === "string").map(([k]) => k);
          if (stringFields.length) {
            await fc.assert(
              fc.asyncProperty(fc.constantFrom(...stringFields), hostileText, async (field, text) => {
                expectNot5xx(await send(route, spec, who, { body: { ...body, [field]: text } }), `${route.key} ${field}=${JSON.stringify(text)}`);
              }),
              { numRuns: NUM_RUNS },
            );
          }
          // Mass assignment never raises anyone's privileges or moves anyone between tenants.
          const privilegesAfter = await privileges();
          if (route.key !== "DELETE /private/core/members/:memberId") expect(privilegesAfter).toEqual(privilegesBefore);
          const tables = await env.DB.prepare("select count(*) as n from sqlite_master where type = 'table'").first<{ n: number }>();
          expect(tables!.n).toBeGreaterThan(5);
        });
      }

      it("answers hostile query strings without a 5xx", async () => {
        const entry = entryOf(route)!;
        const spec = await entry.request(fixture);
        const who = ownerOf(route, spec, fixture);
        const queries: Record<string, string>[] = [
          { pageSize: "-1", cursor: "' OR 1=1 --" },
          { pageSize: "99999999999999999999", before: "-5" },
          { pageSize: "abc", keyword: "%' OR '1'='1" },
          { keyword: "x".repeat(5000), locale: "<script>", sign: "\u0000" },
          { memberNo: "\u0000", all: "maybe", secretKey: "'; --", project: "../ABC" },
        ];
        // Writes with a query: only the refusals are exercised (valid bodies would legitimately store rows).
        const bodyOverride = hasBody(route) && !spec.form ? { rawBody: "{" } : {};
        for (const query of queries) {
          const reply = await send(route, spec, who, { query: { ...spec.query, ...query }, ...bodyOverride });
          expectNot5xx(reply, `${route.key} ?${new URLSearchParams(query).toString().slice(0, 60)}`);
        }
      });
    });
  }
});

describe("control characters in the address", () => {
  it("answers a NUL, newline or escape in a query or path with a 400 envelope before any route runs", async () => {
    const member = await signUp();
    for (const path of [
      "/public/core/profiles/SMP/search?keyword=a%00b",
      "/public/core/profiles/SMP/search?keyword=%0d%0aSet-Cookie:x=1",
      "/public/core/profiles/SMP/member/1%1b[31m",
      "/public/core/profiles/SMP/search?keyword=%E0%A4%A",
    ]) {
      expectFailure(await call("GET", path), 400, "400000");
      expectFailure(await call("GET", path, { as: member }), 400, "400000");
    }
    expectFailure(await call("GET", `/private/core/profiles/${member.memberId}?x=%00`, { as: member }), 400, "400000");
  });
});
