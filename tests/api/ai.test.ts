import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startImage } from "../../worker/features/ai/ai.service";
import { WORKERS_AI_MODEL, imageGenerator, localGenerator } from "../../worker/features/ai/image-generator";
import { call, expectFailure, expectOk, fetchWorker, signUp, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";

const POST_PATH = "/public/partner/ai/image/actor/test_male";

async function aiMember(project = "SMP"): Promise<Member> {
  const member = await signUp(project);
  await env.DB.prepare("update profiles set kyc_status = 9 where member_id = ?").bind(member.memberId).run();
  return member;
}

async function waitForOutput(url: string) {
  for (let i = 0; i < 100; i++) {
    const response = await fetchWorker(url);
    if (response.status === 200) return response;
    await response.arrayBuffer();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never became ready`);
}

const imageCount = async (memberId: string) =>
  (await env.DB.prepare("select count(*) as n from ai_images where member_id = ?").bind(memberId).first<{ n: number }>())!.n;

describe("POST /partner/ai/image/actor/test_male", () => {
  it("answers info.imageUrl at once; /output/{file} is 404 until ready, then 200 with the image", async () => {
    const member = await aiMember();
    const info = expectOk(await call("POST", POST_PATH, { as: member, body: { prompt: "a red rope on a wooden floor" } }));
    expect(info.imageUrl).toMatch(/^\/output\/[A-Za-z0-9]{24}\.jpg$/);
    expect(info.status).toBe("pending");

    const ready = await waitForOutput(info.imageUrl);
    expect(ready.headers.get("Content-Type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await ready.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    const stored = await env.DB.prepare("select status, media_key, provider from ai_images where id_image = ?").bind(info.idImage).first<{ status: string; media_key: string; provider: string }>();
    expect(stored?.status).toBe("ready");
    expect(stored?.provider).toBe("local");
    expect(stored?.media_key).toMatch(new RegExp(`^SMP/${member.memberNo}/ai/`));

    // The member's inbox was told (stored notification of type aiImageReady).
    const note = await env.DB.prepare("select type, params from notifications where member_id = ? order by id_notification desc").bind(member.memberId).first<{ type: string; params: string }>();
    expect(note?.type).toBe("aiImageReady");
    expect(JSON.parse(note!.params).imageUrl).toBe(info.imageUrl);
  });

  it("serves 404 for a pending image and 200 once the background generation has stored it", async () => {
    const member = await aiMember();
    // The service's two halves, run by hand so "pending" is observed deterministically.
    const { image, run } = await startImage(env, { ...member, status: "active", kycStatus: 9 }, "a lantern in the fog");
    const early = await fetchWorker(image.imageUrl);
    expect(early.status).toBe(404);
    expect(early.headers.get("Cache-Control")).toBe("no-store");
    expect(((await early.json()) as { returnCode: string }).returnCode).toBe("404000");
    await run();
    const ready = await fetchWorker(image.imageUrl);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("Content-Type")).toBe("image/jpeg");
    await ready.arrayBuffer();
  });

  it("pushes aiImageReady to the member's inbox socket as soon as the image is stored", async () => {
    const member = await aiMember();
    const inbox = (await openSocket(member, "member-inbox", `SMP~${member.memberId}`)) as TestSocket;
    expect((await inbox.next()).type).toBe("welcome");
    const info = expectOk(await call("POST", POST_PATH, { as: member, body: { prompt: "a bell in the tower" } }));
    const event = await inbox.next((e) => e.type === "notification" && e.item.type === "aiImageReady", 10_000);
    expect(event.item.params.imageUrl).toBe(info.imageUrl);
    expect((await fetchWorker(info.imageUrl)).status).toBe(200);
    inbox.close();
  });

  it("404s unknown or malformed output names", async () => {
    expect((await fetchWorker("/output/AAAAAAAAAAAAAAAAAAAAAAAA.jpg")).status).toBe(404);
    expect((await fetchWorker("/output/..%2F..%2Fsecret")).status).toBe(404);
  });

  it("refuses prompts that are not ASCII with the §8 text, and stores nothing", async () => {
    const member = await aiMember();
    for (const prompt of ["縄の写真", "café au lait", "rope 🪢"]) {
      const reply = await call("POST", POST_PATH, { as: member, body: { prompt } });
      expect(expectFailure(reply, 400, "400401").returnMessage).toBe("English only - AI training room only support English command");
    }
    expect(await imageCount(member.memberId)).toBe(0);
  });

  it("validates the body: empty, blank, too long or missing prompt is a 400", async () => {
    const member = await aiMember();
    for (const body of [{}, { prompt: "" }, { prompt: "   " }, { prompt: "x".repeat(501) }, { prompt: 5 }]) {
      expectFailure(await call("POST", POST_PATH, { as: member, body }), 400, "400000");
    }
    expectFailure(await call("POST", POST_PATH, { as: member, body: "{oops" }), 400, "400002");
    expect(await imageCount(member.memberId)).toBe(0);
  });

  it("is only for kycStatus 9: visitors and other members get 403, bad sessions 100003", async () => {
    expectFailure(await call("POST", POST_PATH, { body: { prompt: "hello" } }), 403, "403901");
    const plain = await signUp();
    expectFailure(await call("POST", POST_PATH, { as: plain, body: { prompt: "hello" } }), 403, "403901");
    await env.DB.prepare("update profiles set kyc_status = 1 where member_id = ?").bind(plain.memberId).run();
    expectFailure(await call("POST", POST_PATH, { as: plain, body: { prompt: "hello" } }), 403, "403901");
    expectFailure(await call("GET", "/public/partner/ai/images", { as: plain }), 403, "403901");
    expectFailure(await call("GET", "/public/partner/ai/images"), 403, "403901");
    expectFailure(await call("POST", POST_PATH, { headers: { "X-Member-ID": plain.memberId, "X-Access-Token": "x".repeat(32) }, body: { prompt: "hello" } }), 401, "100003");
    expect(await imageCount(plain.memberId)).toBe(0);
  });

  it("accepts the session cookie only from our own origin for the write", async () => {
    const member = await aiMember();
    const cookie = `velvet_session=${member.memberId}.${member.token}`;
    const cross = await call("POST", POST_PATH, { headers: { Cookie: cookie, Origin: "https://evil.example" }, body: { prompt: "hello" } });
    expectFailure(cross, 403, "403000");
    const same = await call("POST", POST_PATH, { headers: { Cookie: cookie, Origin: "http://velvet.test" }, body: { prompt: "hello there" } });
    await waitForOutput(expectOk(same).imageUrl);
  });

  it("rate limits each member: the sixth image inside ten minutes is a 429, others are unaffected", async () => {
    const member = await aiMember();
    const urls: string[] = [];
    for (let i = 0; i < 5; i++) urls.push(expectOk(await call("POST", POST_PATH, { as: member, body: { prompt: `prompt number ${i}` } })).imageUrl);
    expectFailure(await call("POST", POST_PATH, { as: member, body: { prompt: "one too many" } }), 429, "429901");
    expect(await imageCount(member.memberId)).toBe(5);
    const other = await aiMember();
    await waitForOutput(expectOk(await call("POST", POST_PATH, { as: other, body: { prompt: "still fine" } })).imageUrl);
    for (const url of urls) await waitForOutput(url);
  });
});

describe("GET /partner/ai/images", () => {
  it("lists only the caller's images, newest first, with blur and imageUrl", async () => {
    const member = await aiMember();
    const first = expectOk(await call("POST", POST_PATH, { as: member, body: { prompt: "first light" } }));
    const second = expectOk(await call("POST", POST_PATH, { as: member, body: { prompt: "second light" } }));
    await waitForOutput(first.imageUrl);
    await waitForOutput(second.imageUrl);
    const other = await aiMember();
    expectOk(await call("POST", POST_PATH, { as: other, body: { prompt: "not yours" } }));

    const list = expectOk(await call("GET", "/public/partner/ai/images?pageSize=10", { as: member })) as { idImage: number; prompt: string; blur: boolean; status: string; imageUrl: string }[];
    expect(list.map((i) => i.prompt)).toEqual(["second light", "first light"]);
    expect(list.every((i) => i.status === "ready" && typeof i.blur === "boolean" && i.imageUrl.startsWith("/output/"))).toBe(true);
    expectFailure(await call("GET", "/public/partner/ai/images?pageSize=0", { as: member }), 400);
    expectFailure(await call("GET", "/public/partner/ai/images?pageSize=1000", { as: member }), 400);
    expect(expectOk(await call("GET", "/public/partner/ai/images?pageSize=1", { as: member }))).toHaveLength(1);
  });

  it("keeps tenants apart: a kycStatus 9 member of ABC sees none of SMP's images", async () => {
    const smp = await aiMember("SMP");
    expectOk(await call("POST", POST_PATH, { as: smp, body: { prompt: "tenant smp" } }));
    const abc = await aiMember("ABC");
    expect(expectOk(await call("GET", "/public/partner/ai/images", { as: abc }))).toEqual([]);
  });
});

describe("local generator", () => {
  it("is deterministic per prompt and differs between prompts", async () => {
    const a = await localGenerator.generate("a quiet harbour");
    const b = await localGenerator.generate("a quiet harbour");
    const c = await localGenerator.generate("a loud harbour");
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});

describe("provider choice (AI_PROVIDER)", () => {
  it("uses the local generator unless configured for Workers AI", () => {
    expect(imageGenerator({ ...env, AI_PROVIDER: "local" } as Env).name).toBe("local");
    expect(imageGenerator(env as Env).name).toBe("local");
  });

  it("calls the Workers AI text-to-image model behind the same interface and decodes its base64 image", async () => {
    const calls: { model: string; input: { prompt: string } }[] = [];
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const fakeAi = {
      run: async (model: string, input: { prompt: string }) => {
        calls.push({ model, input });
        return { image: btoa(String.fromCharCode(...jpeg)) };
      },
    };
    const generator = imageGenerator({ ...env, AI_PROVIDER: "workers-ai", AI: fakeAi } as unknown as Env);
    expect(generator.name).toBe("workers-ai");
    expect(await generator.generate("a harbour at dawn")).toEqual(jpeg);
    expect(calls).toEqual([{ model: WORKERS_AI_MODEL, input: expect.objectContaining({ prompt: "a harbour at dawn" }) }]);
  });

  it("refuses to run as workers-ai without the binding (misconfiguration is loud, not silent)", () => {
    expect(() => imageGenerator({ ...env, AI_PROVIDER: "workers-ai", AI: undefined } as unknown as Env)).toThrow(/AI binding/);
  });
});
