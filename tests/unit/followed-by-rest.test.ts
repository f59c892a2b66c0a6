import { describe, expect, it } from "vitest";
import { followedByRest } from "../../app/lib/use-rest-when-near";

const code = (item: string) => item;

describe("a list's rest arriving after its first cards", () => {
  it("keeps the shown cards in place when the second read ordered them differently", () => {
    // The notes are ordered by last chat: B chatted between the page and the read of the rest.
    expect(followedByRest(["a", "b", "c"], ["b", "a", "d", "c", "e"], code)).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("is as long as the second read when members left or joined the list in between", () => {
    expect(followedByRest(["a", "b"], ["x", "a", "c"], code)).toEqual(["a", "b", "x"]);
    expect(followedByRest(["a", "b", "c"], ["a"], code)).toEqual(["a", "b", "c"]);
  });
});
