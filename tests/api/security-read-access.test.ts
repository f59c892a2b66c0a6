import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PRIVATE_PLACEHOLDER, PUBLIC_CHATROOM_ID } from "../../worker/contract/chat";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { openSocket, type TestSocket } from "../support/socket";
import { dressUp, pngBytes } from "../support/route-matrix";

/**
 * Read access (SECURITY.md): private messages and keyed albums never reach the wrong member, through any
 * door that shows them — lists, detail, last message, the visitor view, sockets — and private profile fields
 * never appear in another member's view of the profile.
 */
let seq = 0;
const everywhere = (reply: { body: unknown }) => JSON.stringify(reply.body);

describe("private messages", () => {
  it("are seen in full by sender and recipient only; everyone else gets the placeholder", async () => {
    const [sender, recipient, bystander] = [await dressUp(await signUp()), await dressUp(await signUp()), await dressUp(await signUp())];
    const secret = `the-secret-words-${Date.now()}`;
    // The recipient takes messages from everyone (a stranger's would otherwise wait as a request, §5 chat).
    expectOk(await call("PUT", "/private/sns/chat-settings", { as: recipient, body: { acceptFrom: "everyone" } }));
    const bystanderSocket = (await openSocket(bystander, "chat-room", `SMP~${PUBLIC_CHATROOM_ID}`)) as TestSocket;
    expect(bystanderSocket.socket, "socket opened").toBeTruthy();
    const sent = expectOk(
      await call("POST", `/private/sns/chatrooms/${PUBLIC_CHATROOM_ID}/messages/${sender.memberId}`, {
        as: sender,
        body: { message: secret, isPrivate: true, toMemberNo: recipient.memberNo, requestId: `private-${++seq}-${Date.now()}` },
      }),
    );
    const id = sent.idChatroomMessage as number;

    for (const who of [sender, recipient]) {
      const list = expectOk(await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`, { as: who }));
      expect(list.find((m: any) => m.idChatroomMessage === id).message).toBe(secret);
    }
    const doors = [
      await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?pageSize=50`, { as: bystander }),
      await call("GET", `/private/sns/chatroom/messages/${id}`, { as: bystander }),
      await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/last-message`, { as: bystander }),
      await call("GET", `/private/sns/chatroom/${PUBLIC_CHATROOM_ID}/message/set`, { as: bystander }),
      await call("GET", `/public/sns/chatroom/${PUBLIC_CHATROOM_ID}/messages?project=SMP`),
      await call("GET", `/public/sns/chatroom/messages/${id}?project=SMP`),
      await call("GET", `/public/sns/chatroom/${PUBLIC_CHATROOM_ID}/last-message?project=SMP`),
    ];
    for (const reply of doors) {
      expect(reply.status).toBeLessThan(500);
      expect(everywhere(reply)).not.toContain(secret);
    }
    const listed = expectOk(doors[0]!).find((m: any) => m.idChatroomMessage === id);
    expect(listed.message).toBe(PRIVATE_PLACEHOLDER);

    // The room's fan-out gives the bystander the placeholder too.
    const event = await bystanderSocket.next((e) => JSON.stringify(e).includes(String(id)), 5000);
    expect(JSON.stringify(event)).not.toContain(secret);
    bystanderSocket.close();

    // Another tenant's members see nothing of it at all.
    const foreign = await dressUp(await signUp("ABC"));
    expect(everywhere(await call("GET", `/private/sns/chatroom/messages/${id}`, { as: foreign }))).not.toContain(secret);
  });
});

describe("keyed albums", () => {
  async function keyedAlbumWithPhoto(owner: Member, key: string) {
    const album = expectOk(await call("POST", "/private/sns/albums", { as: owner, body: { title: "Private set", secretKey: key } }));
    const data = new FormData();
    data.set("file", new File([pngBytes() as BlobPart], "p.png", { type: "image/png" }));
    const upload = expectOk(await call("POST", `/private/sns/albums/${album.idAlbum}/files`, { as: owner, body: data }));
    expectOk(await call("POST", "/private/sns/photos", { as: owner, body: { idAlbum: album.idAlbum, filePath: upload.filePath, description: "only with the key" } }));
    return { idAlbum: album.idAlbum as number, filePath: upload.filePath as string };
  }

  it("show no photo, key or description without the key, anywhere", async () => {
    const [owner, other] = [await dressUp(await signUp()), await dressUp(await signUp())];
    const key = `k-${Date.now()}`;
    const { idAlbum, filePath } = await keyedAlbumWithPhoto(owner, key);
    const ownView = expectOk(await call("GET", `/private/sns/albums/${idAlbum}`, { as: owner }));
    expect(JSON.stringify(ownView)).toContain(filePath);

    const locked = [
      await call("GET", `/private/sns/albums/${idAlbum}`, { as: other }),
      await call("GET", `/public/sns/albums/SMP/${idAlbum}`),
      await call("GET", `/private/sns/member-albums/${owner.memberNo}`, { as: other }),
      await call("GET", `/public/sns/member-albums/SMP/${owner.memberNo}`),
      await call("GET", `/private/sns/albums/${idAlbum}/grants`, { as: other }),
    ];
    for (const reply of locked) {
      const text = everywhere(reply);
      expect(text).not.toContain(filePath);
      expect(text).not.toContain("only with the key");
      expect(text).not.toContain(key);
    }
    const unlock = (as: Member, secretKey: string) => call("POST", `/private/sns/albums/${idAlbum}/unlock`, { as, body: { secretKey } });
    expectFailure(await unlock(other, "wrong-key"), 403);
    expect(everywhere(await unlock(other, "wrong-key"))).not.toContain(filePath);
    // The stored key is a hash, never the key.
    const row = await env.DB.prepare("select * from albums where id_album = ?").bind(idAlbum).first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(key);
    // With the key, the photos open.
    expect(JSON.stringify(expectOk(await unlock(other, key)))).toContain(filePath);
    // Another tenant cannot open it even with the key.
    const foreign = await dressUp(await signUp("ABC"));
    expect(everywhere(await unlock(foreign, key))).not.toContain(filePath);
  });
});

describe("private profile fields", () => {
  it("reach only their owner, through every profile door", async () => {
    const [owner, other] = [await dressUp(await signUp()), await dressUp(await signUp())];
    const secrets = [`+44-${owner.memberNo}`, `07-${owner.memberNo}`, `Flat ${owner.memberNo}`, `red-${owner.memberNo}`];
    expectOk(
      await call("PATCH", `/private/core/profiles/${owner.memberId}`, {
        as: owner,
        body: { phone: secrets[0], mobile: secrets[1], defaultAddress: secrets[2], safeword: secrets[3] },
      }),
    );
    const own = JSON.stringify(expectOk(await call("GET", `/private/core/profiles/${owner.memberId}`, { as: owner })));
    for (const secret of secrets) expect(own).toContain(secret);
    const doors = [
      await call("GET", `/private/core/profiles/${owner.memberId}`, { as: other }),
      await call("GET", `/private/core/profiles/SMP/member/${owner.memberNo}`, { as: other }),
      await call("GET", `/public/core/profiles/SMP/member/${owner.memberNo}`),
      await call("GET", `/private/core/profiles/SMP/new?pageSize=100`, { as: other }),
      await call("GET", `/public/core/profiles/SMP/all`),
      await call("GET", `/private/core/profiles/SMP/search?keyword=Nick`, { as: other }),
    ];
    for (const reply of doors) {
      expect(reply.status).toBeLessThan(500);
      const text = everywhere(reply);
      for (const secret of [...secrets, owner.email]) expect(text).not.toContain(secret);
    }
  });
});
