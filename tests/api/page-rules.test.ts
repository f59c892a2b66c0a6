import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import type { ChatMessage } from "../../worker/contract/chat";
import { uniqueByMember } from "../../app/features/chat/chat-preview-list";
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { call, expectFailure, expectOk, fetchWorker, type Member } from "../support/client";
import { seedFromHex, unscramblePixels } from "../../worker/contract/scramble";
import { master, member } from "./market-support";

let seq = 0;
const rid = () => `rules-${Date.now().toString(36)}-${++seq}`;
const post = (m: Member, message: string) =>
  call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${m.memberId}`, { as: m, body: { requestId: rid(), message } });
const join = (as: Member, masterMemberNo: string) => call("POST", "/private/sns/sub-members/SMP/join", { as, body: { masterMemberNo } });
const sell = (as: Member, simpleCode: string) => call("POST", "/private/sns/game/market/slave", { as, body: { simpleCode } });
const search = (as: Member, keyword: string) => call("GET", `/private/sns/search/SMP?keyword=${encodeURIComponent(keyword)}`, { as });
const hot = async (as: Member) => expectOk(await call("GET", "/private/sns/search/popular-keyword/SMP?pageSize=30", { as })) as { keyword: string; searchCount: number }[];

describe("notes: only the author edits or deletes (§6)", () => {
  it("lets the author edit and delete, refuses everyone else with 403701 and leaves the note as it was", async () => {
    const author = await member();
    const other = await member();
    const note = expectOk(await post(author, "A note worth replying to"));
    const id = note.idChatroomMessage;

    expectFailure(await call("PUT", `/private/sns/chatroom/messages/${other.memberId}/${id}`, { as: other, body: { message: "hijacked" } }), 403, "403701");
    expectFailure(await call("DELETE", `/private/sns/chatroom/messages/${other.memberId}/${id}?all=true`, { as: other }), 403, "403701");
    // Another member's path with one's own token: refused before any rule.
    expectFailure(await call("PUT", `/private/sns/chatroom/messages/${author.memberId}/${id}`, { as: other, body: { message: "hijacked" } }), 403);
    const unchanged = expectOk(await call("GET", `/private/sns/chatroom/messages/${id}`, { as: other }));
    expect(unchanged.message).toBe("A note worth replying to");

    const edited = expectOk(await call("PUT", `/private/sns/chatroom/messages/${author.memberId}/${id}`, { as: author, body: { message: "An edited note" } }));
    expect(edited.message).toBe("An edited note");
    expect(expectOk(await call("GET", `/private/sns/chatroom/messages/${id}`, { as: other })).message).toBe("An edited note");

    expect(expectOk(await call("DELETE", `/private/sns/chatroom/messages/${author.memberId}/${id}?all=true`, { as: author }))).toMatchObject({ deleted: true });
    expectFailure(await call("GET", `/private/sns/chatroom/messages/${id}`, { as: other }), 404);
  });
});

describe("reaction chips toggle the member's own reaction", () => {
  it("adds with a tap, takes back with a second tap of the same emoji, and shows who reacted", async () => {
    const author = await member();
    const reader = await member();
    const note = expectOk(await post(author, "react to me"));
    const react = (emoji: string) =>
      call("PUT", `/private/sns/chatroom/messages/${reader.memberId}/${note.idChatroomMessage}/react`, { as: reader, body: { replyPayload: { type: "emoji", reactEmoji: emoji } } });
    expect(expectOk(await react("🔥")).replyPayload).toEqual([{ type: "emoji", reactEmoji: "🔥", memberNo: reader.memberNo }]);
    expect(expectOk(await react("🔥")).replyPayload).toEqual([]);
  });
});

describe("§9 home chat preview", () => {
  it("keeps each member's latest public message, newest first, without placeholders or deleted ones", async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    for (const [m, text] of [[a, "a1"], [b, "b1"], [a, "a2"], [c, "c1"], [b, "b2"]] as const) expectOk(await post(m, text));
    const page = expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=100`, { as: a })) as ChatMessage[];
    const preview = uniqueByMember(page).filter((m) => [a, b, c].some((x) => x.memberNo === m.memberNo));
    expect(preview.map((m) => m.message)).toEqual(["b2", "c1", "a2"]);
    const fake = (id: number, memberNo: string, extra: Partial<ChatMessage>) => ({ idChatroomMessage: id, memberNo, message: `m${id}`, placeholder: false, deleted: false, ...extra }) as ChatMessage;
    expect(uniqueByMember([fake(1, "1", {}), fake(2, "2", { placeholder: true }), fake(3, "1", { deleted: true })]).map((m) => m.idChatroomMessage)).toEqual([1]);
  });
});

describe("bidding: canBid and lastBidding", () => {
  it("marks cards biddable only for masters who are not the member and not already the last bidder", async () => {
    const seller = await master();
    const sub = await member();
    expectOk(await join(sub, seller.memberNo));
    expectOk(await sell(seller, sub.memberNo));
    const bidder = await master("SMP", { multiGender: 2 });
    const submissive = await member();
    const cardFor = async (m: Member) =>
      (expectOk(await call("GET", "/private/sns/market/SMP/biddings?pageSize=100", { as: m })) as any[]).find((c) => c.profile.simpleCode === sub.memberNo);

    expect((await cardFor(submissive)).canBid).toBe(false);
    // The server refuses what the page hides.
    expectFailure(await call("POST", "/private/sns/bidding-loops", { as: submissive, body: { targetMemberNo: sub.memberNo } }), 403, "403302");
    expect((await cardFor(sub)).canBid).toBe(false);
    expect((await cardFor(bidder)).canBid).toBe(true);
    expectOk(await call("POST", "/private/sns/bidding-loops", { as: bidder, body: { targetMemberNo: sub.memberNo } }));
    expect((await cardFor(bidder)).canBid).toBe(false);
    expect((await cardFor(seller)).canBid).toBe(true);
  });

  it("fills the own profile's lastBidding (dueDate, profile) while listed, keeps it after, and null when never bid on", async () => {
    const seller = await master();
    const sub = await member();
    const own = async (m: Member) => expectOk(await call("GET", `/private/core/profiles/${m.memberId}`, { as: m }));
    expect((await own(sub)).lastBidding).toBeNull();
    expectOk(await join(sub, seller.memberNo));
    expectOk(await sell(seller, sub.memberNo));
    const listed = (await own(sub)).lastBidding;
    expect(listed.profile).toBeNull();
    expect(listed.dueDate).toMatch(/Z$/);

    const bidder = await master();
    expectOk(await call("POST", "/private/sns/bidding-loops", { as: bidder, body: { targetMemberNo: sub.memberNo } }));
    const bid = (await own(sub)).lastBidding;
    expect(bid.profile.simpleCode).toBe(bidder.memberNo);
    expect(bid.profile.nickname).toBe(bidder.nickname);
    // Only profile-summary fields of the bidder: nothing private.
    expect(bid.profile).not.toHaveProperty("memberId");
    expect(bid.profile).not.toHaveProperty("safeword");

    // After the listing is gone, the last bid received still answers.
    await env.DB.prepare("delete from market_listings where member_id = ?").bind(sub.memberId).run();
    expect((await own(sub)).lastBidding.profile.simpleCode).toBe(bidder.memberNo);
    // Others never get another member's lastBidding through this call.
    const other = await member();
    expect(expectOk(await call("GET", `/private/core/profiles/${sub.memberId}`, { as: other })).lastBidding ?? null).toBeNull();
  });
});

describe("hot searches need several distinct members (README)", () => {
  it("lists a keyword only from the third distinct member of the day; one member searching again never lists it", async () => {
    const tag = `Lumen${Date.now().toString(36)}`;
    await member("SMP", { nickname: `${tag} Knot` });
    const [a, b, c] = [await member(), await member(), await member()];
    for (let i = 0; i < 4; i++) expectOk(await search(a, tag));
    expect((await hot(a)).some((k) => k.keyword === tag.toLowerCase())).toBe(false);
    expectOk(await search(b, tag.toUpperCase()));
    expect((await hot(b)).some((k) => k.keyword === tag.toLowerCase())).toBe(false);
    expectOk(await search(c, ` ${tag} `));
    expect((await hot(c)).find((k) => k.keyword === tag.toLowerCase())).toEqual({ keyword: tag.toLowerCase(), searchCount: 3 });
    // Once listed it stays listed (the day's member rows are purged by retention).
    await env.DB.prepare("delete from keyword_searches where keyword = ?").bind(tag.toLowerCase()).run();
    expect((await hot(a)).some((k) => k.keyword === tag.toLowerCase())).toBe(true);
  });
});

describe("§4 encoded chat images", () => {
  const W = 40, H = 30;
  const source = () => {
    const pixels = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) pixels.set([30 + x * 5, 50 + y * 6, 90 + ((x * y) % 100), 255], (y * W + x) * 4);
    return pixels;
  };
  const codec = {
    png(pixels: Uint8Array) {
      const image = new PhotonImage(pixels, W, H);
      const bytes = image.get_bytes();
      image.free();
      return bytes;
    },
    pixels(bytes: Uint8Array) {
      const image = PhotonImage.new_from_byteslice(bytes);
      const pixels = image.get_raw_pixels();
      image.free();
      return pixels;
    },
  };
  const upload = (m: Member, encode: string | null, type = "photo") => {
    const form = new FormData();
    form.set("file", new File([codec.png(source()) as BlobPart], "room.png", { type: "image/png" }));
    form.set("type", type);
    if (encode !== null) form.set("encode", encode);
    return call("POST", `/private/core/files/${m.memberId}`, { as: m, body: form });
  };
  const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

  it("stores the file scrambled, answers the key to the uploader, and the message carries it to those who see it", async () => {
    const sender = await member();
    const reader = await member();
    await env.DB.prepare("update profiles set kyc_status = 1 where member_id = ?").bind(sender.memberId).run();
    const info = expectOk(await upload(sender, "true"));
    expect(info.scrambleKey).toMatch(/^[0-9a-f]{64}$/);
    expect(info.url).toMatch(/\.png$/);

    // The public file is noise; with the key it is the original, pixel for pixel (lossless).
    const file = new Uint8Array(await (await fetchWorker(info.url)).arrayBuffer());
    const stored = codec.pixels(file);
    expect(same(stored, source())).toBe(false);
    expect(same(unscramblePixels(stored, W, H, seedFromHex(info.scrambleKey)), source())).toBe(true);

    const payload = { type: "encodedImage", src: info.url, key: info.scrambleKey };
    const sent = expectOk(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${sender.memberId}`, { as: sender, body: { requestId: rid(), message: "", payload } }));
    expect(sent.payload).toEqual(payload);
    const seen = (expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=20`, { as: reader })) as ChatMessage[]).find((m) => m.idChatroomMessage === sent.idChatroomMessage);
    expect(seen?.payload).toEqual(payload);

    // A plain upload stays JPEG without a key; an avatar cannot be encoded; a key must be 32 bytes of hex.
    expect(expectOk(await upload(sender, null)).scrambleKey).toBeUndefined();
    expectFailure(await upload(sender, "true", "avatar"), 400);
    const bad = { type: "encodedImage", src: info.url, key: "not-a-key" };
    expectFailure(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${sender.memberId}`, { as: sender, body: { requestId: rid(), message: "", payload: bad } }), 400);
    expectFailure(await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${sender.memberId}`, { as: sender, body: { requestId: rid(), message: "", payload: { type: "encodedImage", src: info.url } } }), 400);
  });
});
