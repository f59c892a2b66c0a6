import { useEffect, useState } from "react";
import type { Album } from "../../../worker/contract/albums";
import { scrambleSeed, seedFromHex } from "../../../worker/lib/scramble";

/** The unscramble seed: from the key the viewer typed, else the one the server gave the owner or a grantee. */
export function useSeed(album: Album | null, secretKey: string | null): Uint8Array | null {
  const [seed, setSeed] = useState<Uint8Array | null>(null);
  useEffect(() => {
    let cancelled = false;
    if (!album?.scrambled || !album.photos) setSeed(null);
    else if (secretKey && album.access === "key") void scrambleSeed(secretKey).then((s) => !cancelled && setSeed(s));
    else if (album.scrambleSeed) setSeed(seedFromHex(album.scrambleSeed));
    else if (secretKey) void scrambleSeed(secretKey).then((s) => !cancelled && setSeed(s));
    else setSeed(null);
    return () => {
      cancelled = true;
    };
  }, [album, secretKey]);
  return seed;
}
