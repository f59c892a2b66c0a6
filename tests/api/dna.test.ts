import { describe, expect, it } from "vitest";
import { DnaReading } from "../../worker/contract/dna";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { block } from "./social-support";

// DNA pairing (README Decisions "DNA pairing and creator profiles"; SECURITY.md "DNA pairing and creator profiles"):
// a reading from what the viewer may already see of the member, "not found" where the profile is, nothing where it
// is closed to them, login required.

const dna = (as: Member | null, of: Pick<Member, "memberNo">, project = "SMP") =>
  call("GET", `/${as ? "private" : "public"}/family/dna/${project}/${of.memberNo}`, { as });
const patch = async (m: Member, body: Record<string, unknown>) => expectOk(await call("PATCH", `/private/core/profiles/${m.memberId}`, { as: m, body }));
const tag = async (m: Member, ...ids: number[]) => {
  for (const idCharacter of ids) expectOk(await call("POST", `/private/sns/characters/${m.memberId}`, { as: m, body: { idCharacter } }));
};
const UNAVAILABLE = (m: Member) => ({ simpleCode: m.memberNo, available: false, score: null, reasons: [] });

/** A viewer (male M seeking a male S, Leo) and a member (male S seeking a male M, Aries) sharing bondage (1) and aftercare (13). */
async function pair() {
  const [viewer, member] = [await signUp(), await signUp()];
  await patch(viewer, { nickname: "Viewer", birthday: "1990-07-23", multiGender: 3, lookFor: 1 });
  await patch(member, { nickname: "Member", birthday: "1991-04-10", multiGender: 1, lookFor: 3 });
  // The viewer alone holds 5 (roleplay); the member alone holds 2 (shibari): neither is named in a reason.
  await tag(viewer, 1, 13, 5);
  await tag(member, 1, 13, 2);
  return { viewer, member };
}

describe("GET /family/dna/{project}/{simpleCode}: what works", () => {
  it("reads zodiac, roles and shared tags as typed reasons (codes and parameters, no sentences)", async () => {
    const { viewer, member } = await pair();
    const reply = await dna(viewer, member);
    const reading = expectOk(reply);
    expect(DnaReading.parse(reading)).toEqual(reading);
    expect(reading).toMatchObject({ simpleCode: member.memberNo, available: true, viewerSign: "leo", memberSign: "aries" });
    expect(reading.reasons.map((r: { code: string }) => r.code)).toEqual(["sameElement", "viewerSeeksMember", "memberSeeksViewer", "rolesComplement", "sharedTags"]);
    expect(reading.reasons[0].params).toEqual({ element: "fire", viewerSign: "leo", memberSign: "aries" });
    expect(reading.reasons[4].params).toEqual({ count: 2, tags: [{ idCharacter: 1, title: "bondage" }, { idCharacter: 13, title: "aftercare" }] });
    // Every reason is exactly { code, params }: the page words it in the viewer's language.
    for (const reason of reading.reasons) expect(Object.keys(reason).sort()).toEqual(["code", "params"]);
    expect(reading.parts).toEqual({ zodiac: 85, roles: 100, tags: 71 });
    expect(reading.score).toBeGreaterThan(80);
    expect(reading.score).toBeLessThanOrEqual(100);
    // Both members' birthdays stay private (the sign only), and tags held by one side only are never named.
    const text = JSON.stringify(reply.body);
    for (const secret of ["1990-07-23", "1991-04-10", "shibari", "roleplay", '"idCharacter":2', '"idCharacter":5']) expect(text).not.toContain(secret);
  });

  it("says which side is unknown and leaves that part out of the score", async () => {
    const [viewer, member] = [await signUp(), await signUp()];
    await patch(viewer, { birthday: "1990-01-05" });
    const reading = expectOk(await dna(viewer, member));
    expect(reading.parts).toEqual({ zodiac: null, roles: null, tags: 0 });
    expect(reading.reasons).toEqual([
      { code: "zodiacUnknown", params: { side: "member" } },
      { code: "rolesUnknown", params: { side: "both" } },
      { code: "noSharedTags", params: {} },
    ]);
    expect(reading.score).toBe(0);
  });

  it("one's own profile has no reading", async () => {
    const { viewer } = await pair();
    expect(expectOk(await dna(viewer, viewer))).toEqual(UNAVAILABLE(viewer));
  });
});

describe("GET /family/dna: who may not", () => {
  it("a visitor must log in (401 on both doors)", async () => {
    const { member } = await pair();
    expectFailure(await dna(null, member), 401, "401000");
    expectFailure(await call("GET", `/private/family/dna/SMP/${member.memberNo}`), 401);
  });

  it("a closed profile gives nothing (no score, no tags) until the owner lets the viewer in", async () => {
    const { viewer, member } = await pair();
    await patch(member, { closed: true });
    const reply = await dna(viewer, member);
    expect(expectOk(reply)).toEqual(UNAVAILABLE(member));
    for (const secret of ["bondage", "aftercare", "aries", "rolesComplement", "parts"]) expect(JSON.stringify(reply.body)).not.toContain(secret);
    // The owner follows the viewer back (profile-access.ts): the reading opens.
    expectOk(await call("POST", `/private/core/follows/${viewer.memberNo}`, { as: member }));
    expect(expectOk(await dna(viewer, member)).available).toBe(true);
  });

  it("a member who approves followers: nothing to a member not accepted, as a visitor; a reading once accepted", async () => {
    const { viewer, member } = await pair();
    expectOk(await call("PUT", `/private/core/follow-approval/${member.memberId}`, { as: member, body: { approveFollowers: true } }));
    expectOk(await call("POST", `/private/core/follows/${member.memberNo}`, { as: viewer }));
    expect(expectOk(await dna(viewer, member))).toEqual(UNAVAILABLE(member));
    expectOk(await call("POST", `/private/core/follow-requests/${viewer.memberNo}/accept`, { as: member }));
    expect(expectOk(await dna(viewer, member)).available).toBe(true);
  });

  it("a block either way is not found, both ways", async () => {
    const { viewer, member } = await pair();
    await block(member, viewer);
    const replies = [await dna(viewer, member), await dna(member, viewer)];
    for (const reply of replies) {
      expectFailure(reply, 404, "404000");
      expect(JSON.stringify(reply.body)).not.toContain("bondage");
    }
  });

  it("another tenant is not found (its own path or the member's)", async () => {
    const { member } = await pair();
    const foreign = await signUp("ABC");
    await patch(foreign, { birthday: "1990-07-23", multiGender: 3, lookFor: 1 });
    expectFailure(await dna(foreign, member, "SMP"), 404, "404000");
    expectFailure(await dna(foreign, member, "ABC"), 404, "404000");
  });

  it("a deleted or unknown member is not found; a bad number is a 400 envelope", async () => {
    const { viewer } = await pair();
    expectFailure(await dna(viewer, { memberNo: "999999999" }), 404, "404000");
    expectFailure(await call("GET", "/private/family/dna/SMP/abc", { as: viewer }), 400, "400000");
    expectFailure(await call("GET", "/private/family/dna/TOOLONG/1", { as: viewer }), 400);
  });
});
