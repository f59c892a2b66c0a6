import { useMemo } from "react";
import type { Album } from "../../../worker/contract/albums";
import { seedFromHex } from "../../../worker/contract/scramble";

/**
 * The unscramble seed, as the server gave it after checking the viewer (owner, grantee, key holder). It is random
 * per album: the browser cannot and need not work it out from a key.
 */
export function useSeed(album: Album | null): Uint8Array | null {
  const hex = album?.scrambled && album.photos ? album.scrambleSeed : undefined;
  return useMemo(() => (hex ? seedFromHex(hex) : null), [hex]);
}
