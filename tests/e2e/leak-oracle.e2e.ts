import { md5 } from "js-md5";
import { beforeAll, describe, expect, it } from "vitest";
import routeConfig from "../../app/routes";
import { PUBLIC_CHATROOM_ID, directChatroomId } from "../../worker/contract/chat";
import { SESSION_COOKIE } from "../../worker/contract/session.constants";
import {
  VIEWERS,
  describeFindings,
  findNeedles,
  plant,
  plantHiddenConnections,
  type Finding,
  type PlantIo,
  type PlantMember,
  type Planted,
  type ViewerName,
} from "../support/leak-plant";
import { apiSignUp, avatarJpeg, baseUrl } from "./support/browser";
import { localRows, localSql } from "./support/local-api";

/**
 * The leak oracle for pages (SECURITY.md threat model; the API and sockets are tests/api/leak-oracle.test.ts).
 * Secrets are planted in an owner and a closed profile (tests/support/leak-plant.ts) in the production build; then
 * EVERY page of `app/routes.ts` (walked from the route config itself: a page added tomorrow is fetched tomorrow)
 * is fetched as server-rendered HTML and as React Router's `.data` single-fetch answer, as a visitor, another
 * member, a member the planted members blocked and a member of another tenant. Any planted secret in the HTML,
 * the loader data or a header (a redirect's Location included) is a finding naming the page, viewer and secret.
 */

/**
 * `vite preview` closes idle keep-alive connections after a few seconds (e.g. while `wrangler d1 execute` runs) and
 * Node's fetch may pick such a socket: "other side closed". The request never reached the worker; send it again.
 */
async function fetchRetry(url: string, init: RequestInit) {
  try {
    return await fetch(url, init);
  } catch {
    await new Promise((r) => setTimeout(r, 300));
    return fetch(url, init);
  }
}

const io: PlantIo = {
  signUp: async (project) => (await apiSignUp(project)) as unknown as PlantMember,
  api: async (method, apiPath, as, body) => {
    const headers: Record<string, string> = { ...(as?.headers ?? {}) };
    if (body !== undefined && !(body instanceof FormData)) headers["Content-Type"] = "application/json";
    const response = await fetchRetry(`${baseUrl()}/api/v7${apiPath}`, {
      method,
      headers,
      body: body instanceof FormData ? body : body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { notJson: text };
    }
    return { status: response.status, body: parsed };
  },
  sql: async (statements) => {
    localSql(statements.join("; "));
  },
  rows: async <T,>(statement: string) => localRows(statement) as T[],
  image: () => ({ bytes: avatarJpeg(40, 160), type: "image/jpeg", name: "oracle.jpg" }),
};

let p: Planted;
beforeAll(async () => {
  p = await plant(io);
}, 240_000);

// ── the pages, from app/routes.ts ──

type RouteEntry = { path?: string; index?: boolean; id?: string; file: string; children?: RouteEntry[] };
type Page = { pattern: string; file: string };

/** Every URL pattern of the route config (layouts contribute no segment; index routes their parent's path). */
function pagesOf(entries: RouteEntry[], prefix = ""): Page[] {
  const pages: Page[] = [];
  for (const entry of entries) {
    const here = entry.path ? `${prefix}/${entry.path}`.replace(/\/+/g, "/") : prefix;
    if (entry.index || (entry.path && !entry.children?.length)) pages.push({ pattern: here || "/", file: entry.file });
    else if (entry.path && entry.children?.length) pages.push({ pattern: here, file: entry.file });
    if (entry.children) pages.push(...pagesOf(entry.children, here));
  }
  return [...new Map(pages.map((pg) => [pg.pattern, pg])).values()];
}
const pages = pagesOf(routeConfig as unknown as RouteEntry[]);

const viewerMember = (viewer: ViewerName): PlantMember | null => (viewer === "visitor" ? null : p.viewers[viewer]);

/** The values a page parameter takes: the planted members' numbers and records, and the viewer's own. */
function candidates(pattern: string, name: string, viewer: ViewerName): string[] {
  const self = viewerMember(viewer);
  const owner = p.owner.memberNo;
  const closed = p.closed.memberNo;
  switch (name) {
    case "projectCode":
      return ["smp"];
    case "lang":
      return ["en"];
    case "simpleCode":
    case "masterMemberNo":
      return [owner, closed];
    case "fromMemberNo":
      return [owner, ...(self ? [self.memberNo] : [])];
    case "toMemberNo":
      return [p.recipient.memberNo, closed, ...(self ? [self.memberNo, owner] : [])];
    case "connectionId":
      return [String(p.ids.connection)];
    case "chatroomId":
      return [PUBLIC_CHATROOM_ID];
    case "chatId":
      return [p.ids.dmRoom, ...(self ? [directChatroomId(owner, self.memberNo)] : [])];
    case "roomKey":
      return [md5(owner), String(p.ids.connection), ...(self ? [md5(self.memberNo)] : [])];
    case "idChatroomMessage":
      return [p.ids.publicMessage, p.ids.privateMessage, p.ids.privateImageMessage, p.ids.privateReply].map(String);
    case "tab":
      return ["0", "1", "2"];
    case "idMission":
      return ["1"];
    case "idAlbum":
      return [String(p.ids.keyedAlbum), String(p.ids.openAlbum)];
    case "*":
      return ["no-such-page"];
  }
  throw new Error(`leak oracle: no value for :${name} in page ${pattern} — teach candidates() in tests/e2e/leak-oracle.e2e.ts`);
}

/** Concrete URLs of a pattern, plus the §2 query forms (share codes, roulette) where the page reads them. */
function urlsOf(page: Page, viewer: ViewerName): string[] {
  let urls = [page.pattern];
  for (const match of page.pattern.matchAll(/:([A-Za-z0-9_]+)\??|\*/g)) {
    const name = match[0] === "*" ? "*" : match[1]!;
    const values = candidates(page.pattern, name, viewer);
    urls = urls.flatMap((u) => values.map((v) => u.replace(match[0], encodeURIComponent(v))));
  }
  const extra: string[] = [];
  for (const url of urls) {
    if (url.endsWith("/s") || url.endsWith("/profile")) {
      for (const code of [p.owner.memberNo, p.closed.memberNo]) extra.push(`${url}?c=${code}`, `${url}?sharingCode=${code}`);
    }
    if (url.endsWith("/home") || url.endsWith("/profiles")) extra.push(`${url}?showRoulette=true`);
  }
  return [...new Set([...urls, ...extra])];
}

/** React Router's single-fetch address of a page's loader data. */
function dataUrl(url: string) {
  const [pathname, query] = url.split("?");
  const base = pathname === "/" ? "/_root.data" : `${pathname!.replace(/\/$/, "")}.data`;
  return query ? `${base}?${query}` : base;
}

async function fetchAs(url: string, viewer: ViewerName) {
  const m = viewerMember(viewer);
  const headers: Record<string, string> = { Accept: "text/html", "Accept-Language": "en-US" };
  if (m) headers.Cookie = `${SESSION_COOKIE}=${m.memberId}.${m.token}`;
  const response = await fetchRetry(`${baseUrl()}${url}`, { headers, redirect: "manual" });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** What a visitor gets at each address (a signed-in viewer can always sign out and get it too). */
const asVisitor = new Map<string, string>();
async function visitorText(url: string) {
  if (!asVisitor.has(url)) asVisitor.set(url, (await fetchAs(url, "visitor")).text);
  return asVisitor.get(url)!;
}

async function scan(where: string, address: string, viewer: ViewerName, reply: { text: string; headers: Headers }, part: string, findings: Finding[]) {
  if (viewer === "visitor") asVisitor.set(address, reply.text);
  const headerText = [...reply.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  const found = [
    ...findNeedles(reply.text, viewer, p.needles).map((n) => ({ n, part })),
    ...findNeedles(headerText, viewer, p.needles).map((n) => ({ n, part: `${part} headers` })),
  ];
  for (const { n, part: foundIn } of found) {
    // What a visitor may see at this very address (a public page) is no finding for a signed-in viewer; what a
    // visitor may not see, or what a member-only page shows, still is.
    if (viewer !== "visitor" && !n.hiddenFrom.includes("visitor") && (await visitorText(address)).includes(n.value)) continue;
    findings.push({ where, address, viewer, kind: n.kind, value: n.value, part: foundIn });
  }
}

describe("leak oracle: every page of app/routes.ts as every viewer", () => {
  it("walks the route config itself", () => {
    expect(pages.length).toBeGreaterThan(25);
    expect(pages.some((pg) => pg.pattern === "/:projectCode/share/:simpleCode")).toBe(true);
  });

  for (const viewer of VIEWERS) {
    it(`HTML and loader data as ${viewer}`, async () => {
      const findings: Finding[] = [];
      let fetched = 0;
      for (const page of pages) {
        for (const url of urlsOf(page, viewer)) {
          const where = `page ${page.pattern}`;
          await scan(where, url, viewer, await fetchAs(url, viewer), "HTML", findings);
          await scan(where, dataUrl(url), viewer, await fetchAs(dataUrl(url), viewer), "loader data (.data)", findings);
          fetched++;
        }
      }
      expect(fetched).toBeGreaterThan(pages.length);
      expect(findings, `planted secrets reached ${viewer} on pages:\n${describeFindings(findings)}`).toEqual([]);
    }, 240_000);
  }
});

// Who sees my connections (README Decisions): after the plant above (hooks run in order), every page sweep also looks
// for the owner's hidden sub-member, follower and counts (tests/support/leak-plant.ts `plantHiddenConnections`).
beforeAll(async () => {
  await plantHiddenConnections(io, p);
}, 120_000);
