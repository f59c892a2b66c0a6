import { execFileSync } from "node:child_process";
import path from "node:path";
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
  type Finding,
  type PlantIo,
  type PlantMember,
  type Planted,
  type ViewerName,
} from "../support/leak-plant";
import { apiSignUp, avatarJpeg, baseUrl } from "./support/browser";

/**
 * The leak oracle for pages (SECURITY.md threat model; the API and sockets are tests/api/leak-oracle.test.ts).
 * Secrets are planted in an owner and a closed profile (tests/support/leak-plant.ts) in the production build; then
 * EVERY page of `app/routes.ts` (walked from the route config itself: a page added tomorrow is fetched tomorrow)
 * is fetched as server-rendered HTML and as React Router's `.data` single-fetch answer, as a visitor, another
 * member, a member the planted members blocked and a member of another tenant. Any planted secret in the HTML,
 * the loader data or a header (a redirect's Location included) is a finding naming the page, viewer and secret.
 */

const root = path.resolve(import.meta.dirname, "../..");
const stateDir = () => path.join(root, `.wrangler/e2e-state-${process.env.E2E_PORT ?? 4317}`);

function d1(command: string): any[] {
  const out = execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", stateDir(), "--json", "--command", command], { cwd: root, stdio: "pipe" });
  const parsed = JSON.parse(out.toString()) as { results: any[] }[];
  return parsed.flatMap((r) => r.results ?? []);
}

const io: PlantIo = {
  signUp: async (project) => (await apiSignUp(project)) as unknown as PlantMember,
  api: async (method, apiPath, as, body) => {
    const headers: Record<string, string> = { ...(as?.headers ?? {}) };
    if (body !== undefined && !(body instanceof FormData)) headers["Content-Type"] = "application/json";
    const response = await fetch(`${baseUrl()}/api/v7${apiPath}`, {
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
    d1(statements.join("; "));
  },
  rows: async <T,>(statement: string) => d1(statement) as T[],
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
  return [...new Map(pages.map((pg) => [`${pg.pattern} ${pg.file}`, pg])).values()];
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
  const response = await fetch(`${baseUrl()}${url}`, { headers, redirect: "manual" });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

function scan(where: string, address: string, viewer: ViewerName, reply: { text: string; headers: Headers }, part: string, findings: Finding[]) {
  const headerText = [...reply.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  for (const n of findNeedles(reply.text, viewer, p.needles)) findings.push({ where, address, viewer, kind: n.kind, value: n.value, part });
  for (const n of findNeedles(headerText, viewer, p.needles)) findings.push({ where, address, viewer, kind: n.kind, value: n.value, part: `${part} headers` });
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
          scan(where, url, viewer, await fetchAs(url, viewer), "HTML", findings);
          scan(where, dataUrl(url), viewer, await fetchAs(dataUrl(url), viewer), "loader data (.data)", findings);
          fetched++;
        }
      }
      expect(fetched).toBeGreaterThan(pages.length);
      expect(findings, `planted secrets reached ${viewer} on pages:\n${describeFindings(findings)}`).toEqual([]);
    }, 240_000);
  }
});
