import { describe, expect, it } from "vitest";
import { cardPage, shuffledCardPage } from "../../app/features/profiles/card-pages";
import type { ProfileSummary } from "../../worker/contract/profile-summary";

/** Paging member lists (app/features/profiles/card-pages.ts): every member once, whatever happens between reads. */
const members = (n: number) => Array.from({ length: n }, (_, i) => ({ simpleCode: `M${String(i).padStart(4, "0")}` }) as ProfileSummary);
const codes = (list: ProfileSummary[]) => list.map((p) => p.simpleCode);

/** Reads page after page as "Load more" does, with `read(i)` the list the API gives on the i-th read. */
function pageThrough(read: (i: number) => ProfileSummary[], page: (list: ProfileSummary[], url: URL) => ReturnType<typeof cardPage>) {
  const shown: string[] = [];
  let at: string | null = "";
  for (let i = 0; at !== null && i < 50; i++) {
    const p = page(read(i), new URL(`https://x/all-profiles?at=${at}`));
    shown.push(...codes(p.cards));
    at = p.next;
  }
  return shown;
}

describe("card pages", () => {
  it("pages a ranked list by position: every member once, then the end", () => {
    const list = members(130);
    expect(pageThrough(() => list, cardPage)).toEqual(codes(list));
    expect(cardPage(list, new URL("https://x/?at=96")).next).toBeNull();
    expect(cardPage(list, new URL("https://x/?at=junk")).at).toBe("junk");
    expect(codes(cardPage(list, new URL("https://x/?at=junk")).cards)).toEqual(codes(list.slice(0, 48)));
  });

  it("keeps a visit's random order across pages, whatever order the API read in, and a new seed gives a new order", () => {
    const list = members(130);
    const shuffled = (i: number) => [...list].sort(() => ((i * 7919) % 3) - 1);
    const shown = pageThrough(shuffled, (l, url) => shuffledCardPage(l, "0123abcd", url));
    expect([...shown].sort()).toEqual(codes(list));
    expect(new Set(shown).size).toBe(130);
    expect(shown).not.toEqual(codes(list));
    expect(pageThrough(() => list, (l, url) => shuffledCardPage(l, "89abcdef", url))).not.toEqual(shown);
  });

  it("skips and repeats nobody still listed when members join or leave between two reads", () => {
    const list = members(130);
    const first = shuffledCardPage(list, "0123abcd", new URL("https://x/?at="));
    // Before "Load more": two members of the first page and one not yet shown leave, two new ones come.
    const gone = new Set([first.cards[0]!.simpleCode, first.cards[5]!.simpleCode, "M0100"]);
    const later = [...list.filter((p) => !gone.has(p.simpleCode)), { simpleCode: "N0001" } as ProfileSummary, { simpleCode: "N0002" } as ProfileSummary];
    const rest = pageThrough(() => later, (l, url) => shuffledCardPage(l, "0123abcd", new URL(`${url.origin}/?at=${url.searchParams.get("at") || first.next}`)));
    const shown = [...codes(first.cards), ...rest];
    expect(new Set(shown).size).toBe(shown.length);
    for (const p of list) if (!gone.has(p.simpleCode) || codes(first.cards).includes(p.simpleCode)) expect(shown).toContain(p.simpleCode);
  });

  it("reads a bad cursor as the first page", () => {
    const list = members(60);
    expect(shuffledCardPage(list, "0123abcd", new URL("https://x/?at=-5")).at).toBe("");
    expect(shuffledCardPage(list, "0123abcd", new URL("https://x/?at=1e9x")).cards).toHaveLength(48);
  });
});
