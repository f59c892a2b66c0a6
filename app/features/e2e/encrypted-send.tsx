import { useState } from "react";
import type { Payload } from "../../../worker/contract/chat";
import { readSession } from "../../lib/session-keys";
import { uploadWithProgress } from "../../lib/upload";
import { e2eCode, useE2eCodeForSend } from "./late-e2e";
import { SendAnywayDialog, type SendAnywayAsk } from "./send-anyway-dialog";

type EncryptedPayload = Extract<Payload, { type: "encrypted" }>;
type Ask = SendAnywayAsk;
/** Seals a text for the two members, or "plain" after the member chose to send without encryption. */
export type Sealer = ((text: string) => Promise<EncryptedPayload>) | "plain";

/**
 * Encryption for what is private outside a one-to-one room's text (README Decisions "Everything private is
 * encrypted"): private replies in shared rooms, private thread replies and images of private messages. The same
 * scheme as one-to-one text (chat-crypto.ts `encryptText`, every listed device of both members, signed by this
 * device) and the same choices: no silent downgrade ("This message will not be end-to-end encrypted") and a confirm
 * when a verified contact's keys changed. `context` is what the signature binds the message to: the room id, or
 * `thread-<note id>` for a thread reply.
 */
export function useE2eSend() {
  const [ask, setAsk] = useState<Ask | null>(null);
  const confirm = (kind: Ask["kind"]) => new Promise<boolean>((resolve) => setAsk({ kind, resolve }));
  const codeForSend = useE2eCodeForSend();

  /** Null when the member cancelled or the end-to-end code could not be fetched. */
  async function sealerFor(peerNo: string, context: string): Promise<Sealer | null> {
    const code = await codeForSend();
    if (!code) return null;
    return code.sealerFor(await code.readKeys(peerNo).catch(() => null), context, confirm);
  }

  /**
   * An image for a private message: encrypted here and uploaded as opaque bytes when the peer has keys (the payload
   * to send), or the ordinary private upload after "Send anyway" (`plain`: the caller sends it as before).
   */
  async function sealImage(peerNo: string, context: string, file: File, onProgress: (fraction: number) => void): Promise<{ payload: EncryptedPayload } | { failure: { returnCode: string; returnMessage: string } } | "plain" | null> {
    const session = readSession();
    const sealer = await sealerFor(peerNo, context);
    if (sealer === null || sealer === "plain") return sealer;
    if (!session) return null;
    const { cleanImage, encryptFile } = await e2eCode.fetch();
    const image = await cleanImage(file);
    if (!image) return { failure: { returnCode: "415000", returnMessage: "Only png, jpg and jpeg images are accepted" } };
    const sealed = await encryptFile(image.bytes);
    const form = new FormData();
    // A neutral name: the original file name stays on the phone.
    form.set("file", new File([sealed.ciphertext], "image.bin", { type: "application/octet-stream" }));
    form.set("type", "encrypted");
    const upload = await uploadWithProgress<{ url: string }>(`/private/core/files/${session.memberId}`, form, onProgress);
    if (!("info" in upload)) return { failure: upload };
    const payload = await sealer(sealed.describe(upload.info.url, { type: image.type, width: image.width, height: image.height }));
    return { payload: { ...payload, media: upload.info.url } };
  }

  const answer = (send: boolean) => {
    ask?.resolve(send);
    setAsk(null);
  };
  const dialog = ask ? (
    <SendAnywayDialog ask={ask} onAnswer={answer} />
) : null;

  return { sealerFor, sealImage, dialog };
}
