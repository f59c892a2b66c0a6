/**
 * The translation namespaces each main page renders with, by the path segment after the project code (README
 * Decisions "Lighter main pages"). Such a page's HTML carries only these (12–37 KB of English instead of ~62 KB
 * for every namespace); the rest of the language arrives right after hydration (root.tsx), before a member can
 * open another page. Other pages get every namespace, as before. tests/unit/page-namespaces.test.ts keeps each
 * list a superset of the namespaces the page's modules (and the root and member shell) can use.
 */
export const PAGE_NAMESPACES: Record<string, readonly string[]> = {
  login: ["common", "line", "profiles", "session", "shell", "chat"],
  home: ["chat", "common", "e2e", "e2e-link", "e2e-media", "errors", "home", "muted", "posting", "profiles", "rules", "shell", "social", "stranger"],
  profiles: ["chat", "common", "muted", "profiles", "shell"],
  share: ["chat", "common", "connections", "creator", "e2e", "e2e-link", "e2e-media", "errors", "followers", "market", "muted", "posting", "profiles", "reporting", "room-blur", "rules", "safety", "shell", "social"],
  "public-chat": ["chat", "common", "e2e", "e2e-link", "e2e-media", "muted", "posting", "profiles", "reporting", "room-blur", "rules", "shell"],
};
// /s?c= is the public profile too (app/routes.ts).
PAGE_NAMESPACES.s = PAGE_NAMESPACES.share as readonly string[];

/** The namespaces a page at `pathname` needs in its HTML, or null for every namespace. */
export function pageNamespaces(pathname: string): readonly string[] | null {
  const [, project, page] = pathname.split("/");
  if (!project || !/^[A-Za-z]{3}$/.test(project) || !page) return null;
  return Object.hasOwn(PAGE_NAMESPACES, page) ? (PAGE_NAMESPACES[page] ?? null) : null;
}
