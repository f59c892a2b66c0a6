import { ALBUM_UNLOCK_SECONDS } from "../../contract/albums.constants";
import { timingSafeEqualHex, toHex } from "../../lib/crypto";

/**
 * The unlock a key holder gets once the server checked their key: `<expiry ms>.<HMAC-SHA256>` in an HttpOnly
 * cookie per album (README Decisions "Keyed albums"). The MAC covers the tenant, the album, the member who proved
 * the key (empty for a visitor: then it is bound to the browser that holds the cookie), the expiry and the album's
 * current key hash and sealed seed, so re-keying or deleting the album outdates every unlock at once. The key is
 * derived from SEAL_SECRET, apart from JWT_SECRET.
 */
export type UnlockTarget = { idAlbum: number; projectCode: string; keyHash: string | null; seedSealed: string | null };

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function macKey(secret: string) {
  if (!secret) throw new Error("SEAL_SECRET is not set: album unlocks cannot be signed");
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: encoder.encode("velvet-album-unlock"), info: encoder.encode("hmac-sha256") },
          base,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign"],
        ),
      );
    keys.set(secret, key);
  }
  return key;
}

async function mac(env: Env, album: UnlockTarget, memberId: string, expires: number) {
  const message = [album.projectCode, album.idAlbum, memberId, expires, album.keyHash ?? "", album.seedSealed ?? ""].join("\n");
  return toHex(await crypto.subtle.sign("HMAC", await macKey(env.SEAL_SECRET), encoder.encode(message)));
}

export async function issueUnlock(env: Env, album: UnlockTarget, memberId: string | null, now = Date.now()): Promise<string> {
  const expires = now + ALBUM_UNLOCK_SECONDS * 1000;
  return `${expires}.${await mac(env, album, memberId ?? "", expires)}`;
}

/**
 * Is this unlock live for this viewer? A member's unlock works only with that member's session; a visitor's
 * works for whoever holds the cookie (a member who unlocked before logging in keeps it).
 */
export async function unlockIsLive(env: Env, album: UnlockTarget, memberId: string | null, token: string | undefined, now = Date.now()): Promise<boolean> {
  if (!token || !album.keyHash) return false;
  const match = /^(\d{13,15})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires <= now || expires > now + ALBUM_UNLOCK_SECONDS * 1000) return false;
  for (const bound of memberId ? [memberId, ""] : [""]) {
    if (timingSafeEqualHex(await mac(env, album, bound, expires), match[2]!)) return true;
  }
  return false;
}
