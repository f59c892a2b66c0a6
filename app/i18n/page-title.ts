import { unpackBundle } from "./i18n";
import { FALLBACK_LANGUAGE } from "./languages";

type MetaMatch = { id: string; loaderData?: unknown } | undefined;

/**
 * "Velvet · Albums" for a route's `meta`, in the member's language. `meta` runs outside React, so it reads the
 * language and its strings from the root loader's data; `key` is "namespace:path.to.key".
 */
export function pageTitle(matches: readonly MetaMatch[], key: string): string {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { lang?: string; resources?: string } | undefined;
  const resources = root?.resources ? unpackBundle(root.resources) : undefined;
  const [ns = "common", path = ""] = key.includes(":") ? key.split(":") : ["common", key];
  const lookup = (lang: string | undefined) => {
    const value = path.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], lang ? resources?.[lang]?.[ns] : undefined);
    return typeof value === "string" ? value : undefined;
  };
  const name = lookup(root?.lang) ?? lookup(FALLBACK_LANGUAGE);
  return name ? `Velvet · ${name}` : "Velvet";
}
