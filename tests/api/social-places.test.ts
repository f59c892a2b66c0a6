import { env } from "cloudflare:test";
import ngeohash from "ngeohash";
import { describe, expect, it } from "vitest";
import { call, expectFailure, expectOk, signUp, signUpPoster, type Member } from "../support/client";
import { eventually, notificationRows } from "./social-support";

const put = (member: Member, latitude: number, longitude: number, extra: Record<string, unknown> = {}) =>
  call("PUT", `/private/core/geolocation/${member.memberId}`, { as: member, body: { latitude, longitude, ...extra } });

/** A member at a position who opted in to being seen on maps and nearby. */
async function at(latitude: number, longitude: number, project = "SMP") {
  const member = await signUp(project);
  expectOk(await put(member, latitude, longitude));
  expectOk(await call("PATCH", `/private/core/profiles/${member.memberId}`, { as: member, body: { showPosition: true } }));
  return member;
}

describe("geolocation", () => {
  it("stores coordinates with a server-computed geohash and reads them back", async () => {
    const member = await signUpPoster();
    expect(expectOk(await call("GET", `/private/core/geolocation/${member.memberId}`, { as: member }))).toEqual({ latitude: null, longitude: null, geohash: null, showPosition: false });
    const saved = expectOk(await put(member, 35.6895, 139.6917));
    expect(saved.geohash).toBe(ngeohash.encode(35.6895, 139.6917, 9));
    expect(expectOk(await call("GET", `/private/core/geolocation/${member.memberId}`, { as: member }))).toEqual(saved);
    // A geohash from the client must agree with the coordinates.
    expectOk(await put(member, 35.6895, 139.6917, { geohash: saved.geohash.slice(0, 5) }));
    expectFailure(await put(member, 35.6895, 139.6917, { geohash: "u4pru" }), 400, "400602");
    // Update addressed with the upper-case project code (and a lower-case one is accepted and normalised).
    expectOk(await call("PUT", `/private/core/geolocation/SMP/${member.memberId}`, { as: member, body: { latitude: 1.3521, longitude: 103.8198 } }));
    expectOk(await call("PUT", `/private/core/geolocation/smp/${member.memberId}`, { as: member, body: { latitude: 1.3521, longitude: 103.8198 } }));
    expect(expectOk(await call("GET", `/private/core/geolocation/${member.memberId}`, { as: member })).latitude).toBe(1.3521);
  });

  it("validates ranges and ownership without changing anything", async () => {
    const member = await at(10, 10);
    const other = await signUpPoster();
    const abc = await signUp("ABC");
    for (const [lat, lng] of [[91, 0], [-90.5, 0], [0, 180.1], [0, -181]]) expectFailure(await put(member, lat!, lng!), 400, "400000");
    expectFailure(await call("PUT", `/private/core/geolocation/${member.memberId}`, { as: member, body: { latitude: "10", longitude: 10 } }), 400);
    expectFailure(await call("PUT", `/private/core/geolocation/${member.memberId}`, { as: other, body: { latitude: 1, longitude: 1 } }), 403);
    expectFailure(await call("GET", `/private/core/geolocation/${member.memberId}`, { as: abc }), 403);
    expectFailure(await call("GET", `/private/core/geolocation/${member.memberId}`), 401);
    expectFailure(await call("PUT", `/private/core/geolocation/ABC/${member.memberId}`, { as: member, body: { latitude: 1, longitude: 1 } }), 404);
    expectFailure(await call("PUT", `/private/core/geolocation/ABCD/${member.memberId}`, { as: member, body: { latitude: 1, longitude: 1 } }), 400);
    expect(expectOk(await call("GET", `/private/core/geolocation/${member.memberId}`, { as: member }))).toMatchObject({ latitude: 10, longitude: 10 });
  });
});

describe("nearby", () => {
  it("ranks by distance, answers coarse positions, and leaves out members without a location", async () => {
    // A private spot in the Pacific so other tests' members are far away.
    const me = await at(-30.0, -140.0);
    const near = await at(-30.0123, -140.0087);
    const mid = await at(-30.2, -140.3);
    const far = await at(-31.5, -141.9);
    const hidden = await signUpPoster(); // never shared a location
    const shy = await signUpPoster(); // a location, but never opted in
    expectOk(await put(shy, -30.0001, -140.0001));
    const info = expectOk(await call("GET", "/private/core/geolocation/SMP/nearby?pageSize=3", { as: me }));
    expect(info.items.map((i: any) => i.profile.simpleCode)).toEqual([near.memberNo, mid.memberNo, far.memberNo]);
    expect(info.items.map((i: any) => i.rank)).toEqual([1, 2, 3]);
    expect(info.items.map((i: any) => i.profile.simpleCode)).not.toContain(hidden.memberNo);
    expect(info.items.map((i: any) => i.profile.simpleCode)).not.toContain(shy.memberNo);
    const first = info.items[0];
    // A cell, never the stored coordinates: the centre of the 6-character geohash cell they are in.
    const centre = ngeohash.decode(ngeohash.encode(-30.0123, -140.0087, 6));
    expect(first.latitude).toBeCloseTo(centre.latitude, 5);
    expect(first.longitude).toBeCloseTo(centre.longitude, 5);
    for (const item of info.items) {
      expect(item).not.toHaveProperty("geohash");
      expect(Number.isInteger(item.distanceKm)).toBe(true);
      expect(["N", "NE", "E", "SE", "S", "SW", "W", "NW", null]).toContain(item.bearing);
    }
    expect(first.distanceKm).toBeGreaterThanOrEqual(1);
    expect(info.items[1].distanceKm).toBeLessThan(info.items[2].distanceKm);

    // Sharing stops: the member disappears at once.
    expectOk(await call("DELETE", `/private/core/geolocation/${near.memberId}`, { as: near }));
    const after = expectOk(await call("GET", "/private/core/geolocation/SMP/nearby?pageSize=3", { as: me }));
    expect(after.items.map((i: any) => i.profile.simpleCode)).toEqual([mid.memberNo, far.memberNo].concat(after.items.slice(2).map((i: any) => i.profile.simpleCode)));
  });

  it("reads candidates through the geohash index, not the whole table", async () => {
    const me = await at(48.8566, 2.3522);
    await at(48.86, 2.35);
    // Many members far away that a table scan would touch.
    const stmts = [];
    for (let i = 0; i < 60; i++) {
      const lat = -60 + i * 0.01;
      stmts.push(
        env.DB.prepare(
          "insert into profiles (member_id, project_code, simple_code, nickname, latitude, longitude, geohash, created_at, updated_at) values (?, 'SMP', ?, 'far', ?, ?, ?, 0, 0)",
        ).bind(`mfar${i}`, String(90000000 + i), lat, 170, ngeohash.encode(lat, 170, 9)),
      );
    }
    await env.DB.batch(stmts);
    const { getGeolocation, candidatesIn } = await import("../../worker/features/social/geo.service");
    const origin = await getGeolocation(env as unknown as Env, { memberId: me.memberId } as never);
    const cell = origin.geohash!.slice(0, 5);
    const { rows, rowsRead } = await candidatesIn(env as unknown as Env, "SMP", me.memberId, [cell, ...ngeohash.neighbors(cell)], Date.now());
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const total = await env.DB.prepare("select count(*) as n from profiles").first<number>("n");
    expect(total).toBeGreaterThan(60);
    // Only the few rows inside the nine cells are read (plus block/mute probes), not the 60+ elsewhere.
    expect(rowsRead).toBeLessThan(20);
    expect(expectOk(await call("GET", "/private/core/geolocation/SMP/nearby", { as: me })).items.length).toBeGreaterThanOrEqual(1);
  });

  it("needs my own location, stays in my tenant, and refuses anonymous and bad input", async () => {
    const me = await signUpPoster();
    expectFailure(await call("GET", "/private/core/geolocation/SMP/nearby", { as: me }), 409, "409602");
    const abcMember = await at(-30.0, -140.0, "ABC");
    expectOk(await put(me, -30.0, -140.0));
    expect(expectOk(await call("GET", "/private/core/geolocation/SMP/nearby", { as: me })).items.map((i: any) => i.profile.simpleCode)).not.toContain(abcMember.memberNo);
    expectFailure(await call("GET", "/private/core/geolocation/ABC/nearby", { as: me }), 404);
    expectFailure(await call("GET", "/private/core/geolocation/SMP/nearby"), 401);
    expectFailure(await call("GET", "/private/core/geolocation/SMP/nearby?pageSize=5000", { as: me }), 400);
  });
});

describe("flame (§4, §6)", () => {
  it("only the holder passes it; afterwards the giver's flame state is cleared", async () => {
    const [first, second, third] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: first }))).toMatchObject({ mine: false });
    await env.DB.prepare("insert into flame_passes (project_code, holder_member_id, created_at) values ('SMP', ?, ?)").bind(first.memberId, Date.now()).run();
    expect(expectOk(await call("GET", "/private/core/flame/smp/last", { as: third }))).toMatchObject({ memberNo: first.memberNo, mine: false });
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: first })).mine).toBe(true);

    expectFailure(await call("POST", "/private/core/flame/SMP/delivery", { as: third, body: { targetMemberNo: second.memberNo } }), 403, "403601");
    const passed = expectOk(await call("POST", "/private/core/flame/SMP/delivery", { as: first, body: { targetMemberNo: second.memberNo } }));
    expect(passed).toMatchObject({ memberNo: second.memberNo, mine: false });
    const notes = await eventually(() => notificationRows(second, "flame"), (r) => r.length === 1);
    expect(JSON.parse(notes[0]!.params)).toEqual({ action: "received" });
    // The old holder can no longer pass or approve.
    expectFailure(await call("POST", "/private/core/flame/SMP/delivery", { as: first, body: { targetMemberNo: third.memberNo } }), 403);
    expectFailure(await call("POST", "/private/core/flame/SMP/approve", { as: first, body: { targetMemberNo: third.memberNo } }), 403);
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: second })).mine).toBe(true);
    // Passing to oneself is refused.
    expectFailure(await call("POST", "/private/core/flame/SMP/delivery", { as: second, body: { targetMemberNo: second.memberNo } }), 400);
  });

  it("the holder approves members as verified (kycStatus 1)", async () => {
    const [holder, member, aiMember] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    await env.DB.prepare("insert into flame_passes (project_code, holder_member_id, created_at) values ('SMP', ?, ?)").bind(holder.memberId, Date.now()).run();
    expect(expectOk(await call("POST", "/private/core/flame/SMP/approve", { as: holder, body: { targetMemberNo: member.memberNo } }))).toEqual({ memberNo: member.memberNo, kycStatus: 1 });
    // Verified now: the leave-message gate opens.
    expectOk(await call("POST", "/private/core/leave-message", { as: member, body: { code: holder.memberNo, text: "thank you" } }));
    await env.DB.prepare("update profiles set kyc_status = 9 where member_id = ?").bind(aiMember.memberId).run();
    expect(expectOk(await call("POST", "/private/core/flame/SMP/approve", { as: holder, body: { targetMemberNo: aiMember.memberNo } })).kycStatus).toBe(9);
  });

  it("is per tenant and refuses anonymous, other tenants and bad input", async () => {
    const holder = await signUpPoster();
    const abc = await signUp("ABC");
    await env.DB.prepare("insert into flame_passes (project_code, holder_member_id, created_at) values ('SMP', ?, ?)").bind(holder.memberId, Date.now()).run();
    expectFailure(await call("GET", "/private/core/flame/SMP/last"), 401);
    expectFailure(await call("GET", "/private/core/flame/SMP/last", { as: abc }), 404);
    expect(expectOk(await call("GET", "/private/core/flame/ABC/last", { as: abc })).memberNo).not.toBe(holder.memberNo);
    expectFailure(await call("POST", "/private/core/flame/SMP/delivery", { as: holder, body: { targetMemberNo: abc.memberNo } }), 404);
    expectFailure(await call("POST", "/private/core/flame/SMP/delivery", { as: holder, body: {} }), 400);
    expectFailure(await call("GET", "/private/core/flame/SM/last", { as: holder }), 400);
    expect(expectOk(await call("GET", "/private/core/flame/SMP/last", { as: holder })).mine).toBe(true);
  });
});

describe("notifications tab, door-bell and actions", () => {
  it("lists newest first with the actor, marks read, counts unread and clears all", async () => {
    const [me, a, b] = [await signUpPoster(), await signUpPoster(), await signUpPoster()];
    expectOk(await call("POST", `/private/core/follows/${me.memberNo}`, { as: a }));
    expectOk(await call("POST", "/private/core/friends/request", { as: b, body: { targetMemberNo: me.memberNo } }));
    await eventually(() => notificationRows(me), (r) => r.length === 2);
    const list = expectOk(await call("GET", "/private/core/notifications", { as: me }));
    expect(list.items.map((n: any) => [n.type, n.actor.simpleCode])).toEqual([
      ["friendRequest", b.memberNo],
      ["follow", a.memberNo],
    ]);
    expect(list.items[0]).toMatchObject({ read: false, actorMemberNo: b.memberNo });
    expect(expectOk(await call("GET", "/private/core/notifications/unread-count", { as: me })).count).toBe(2);
    expect(expectOk(await call("POST", "/private/core/notifications/read", { as: me, body: { ids: [list.items[1].idNotification] } }))).toEqual({ marked: 1, unread: 1 });
    // Someone else's ids are not touched.
    expect(expectOk(await call("POST", "/private/core/notifications/read", { as: a, body: { ids: [list.items[0].idNotification] } })).marked).toBe(0);
    expect(expectOk(await call("POST", "/private/core/notifications/read", { as: me, body: {} }))).toEqual({ marked: 1, unread: 0 });
    expectFailure(await call("POST", "/private/core/notifications/read", { as: me, body: { ids: ["x"] } }), 400);
    expect(expectOk(await call("DELETE", "/private/core/notifications", { as: a })).cleared).toBe(0);
    expect(expectOk(await call("DELETE", "/private/core/notifications", { as: me })).cleared).toBe(2);
    expect(expectOk(await call("GET", "/private/core/notifications", { as: me })).items).toEqual([]);
    expectFailure(await call("GET", "/private/core/notifications"), 401);
    expectFailure(await call("DELETE", "/private/core/notifications"), 401);
  });

  it("the door-bell rings once for activity that arrived since the last check", async () => {
    const me = await signUpPoster();
    const writer = await signUpPoster();
    await env.DB.prepare("update profiles set kyc_status = 1 where member_id = ?").bind(writer.memberId).run();
    expect(expectOk(await call("POST", "/private/core/door-bell/check", { as: me })).ring).toBe(false);
    expectOk(await call("POST", "/private/core/leave-message", { as: writer, body: { code: me.memberNo, text: "ding" } }));
    await eventually(() => notificationRows(me), (r) => r.length === 1);
    const bell = expectOk(await call("POST", "/private/core/door-bell/check", { as: me }));
    expect(bell).toMatchObject({ ring: true, guestbookUnread: 1, notificationsUnread: 1 });
    expect(expectOk(await call("POST", "/private/core/door-bell/check", { as: me }))).toMatchObject({ ring: false, guestbookUnread: 1 });
    expectFailure(await call("POST", "/private/core/door-bell/check"), 401);
  });

  it("actions by member code: hour stats and recent public actions, 404 across tenants", async () => {
    const actor = await signUpPoster();
    const [x, y] = [await signUpPoster(), await signUpPoster()];
    expectOk(await call("POST", `/private/core/follows/${x.memberNo}`, { as: actor }));
    expectOk(await call("POST", `/private/core/follows/${y.memberNo}`, { as: actor }));
    const viewer = await signUpPoster();
    const info = expectOk(await call("GET", `/private/core/actions/${actor.memberNo}`, { as: viewer }));
    expect(info.stats).toHaveLength(24);
    expect(info.stats[new Date().getUTCHours()].actionCount).toBe(2);
    expect(info.recent.map((r: any) => r.type)).toEqual(["follow", "follow"]);
    expect(JSON.stringify(info)).not.toContain(x.memberNo);
    expect(expectOk(await call("GET", `/private/core/actions/${actor.memberNo}`, { as: actor })).recent).toHaveLength(2);
    expectFailure(await call("GET", `/private/core/actions/${actor.memberNo}`, { as: await signUp("ABC") }), 404);
    expectFailure(await call("GET", `/private/core/actions/${actor.memberNo}`), 401);
    expectFailure(await call("GET", "/private/core/actions/abc", { as: viewer }), 400);
  });
});

describe("basement (verified: kycStatus 1, or 9 which includes it, §6)", () => {
  it("lists verified members for verified members and refuses everyone else", async () => {
    const verified = await signUpPoster();
    const peer = await signUpPoster();
    const plain = await signUpPoster();
    const ai = await signUpPoster();
    await env.DB.prepare("update profiles set kyc_status = 1 where member_id in (?, ?)").bind(verified.memberId, peer.memberId).run();
    await env.DB.prepare("update profiles set kyc_status = 9 where member_id = ?").bind(ai.memberId).run();
    const info = expectOk(await call("GET", "/private/core/basement", { as: verified }));
    const codes = info.members.map((m: any) => m.simpleCode);
    expect(codes).toContain(peer.memberNo);
    expect(codes).not.toContain(plain.memberNo);
    expect(codes).not.toContain(verified.memberNo);
    expect(codes).toContain(ai.memberNo);
    expect(info.members.every((m: any) => m.kycStatus >= 1)).toBe(true);
    expectFailure(await call("GET", "/private/core/basement", { as: plain }), 403, "403202");
    // README Decisions "Verification": the AI room (9) includes verified.
    expect(expectOk(await call("GET", "/private/core/basement", { as: ai })).members.map((m: any) => m.simpleCode)).toContain(verified.memberNo);
    expectFailure(await call("GET", "/private/core/basement"), 401);
    const abc = await signUp("ABC");
    await env.DB.prepare("update profiles set kyc_status = 1 where member_id = ?").bind(abc.memberId).run();
    expect(expectOk(await call("GET", "/private/core/basement", { as: abc })).members.map((m: any) => m.simpleCode)).not.toContain(peer.memberNo);
    // A block hides the pair from each other's basement.
    expectOk(await call("POST", "/private/core/blocks", { as: peer, body: { targetMemberNo: verified.memberNo } }));
    expect(expectOk(await call("GET", "/private/core/basement", { as: verified })).members.map((m: any) => m.simpleCode)).not.toContain(peer.memberNo);
  });
});
