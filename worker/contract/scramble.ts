// §4/§9: encoded album images use a seeded pixel shuffle. No imports: the browser unscrambles on a canvas with
// the same functions the worker scrambled with. The seed is random per album (album-seal.ts), never the key's.

export function seedToHex(seed: Uint8Array): string {
  return [...seed].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function seedFromHex(hex: string): Uint8Array {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error("bad scramble seed");
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** sfc32: a small, fast, well-distributed 32-bit PRNG; seeded from the first 16 seed bytes. */
function prng(seed: Uint8Array): () => number {
  const word = (i: number) => ((seed[i]! << 24) | (seed[i + 1]! << 16) | (seed[i + 2]! << 8) | seed[i + 3]!) >>> 0;
  let a = word(0), b = word(4), c = word(8), d = word(12);
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return r >>> 0;
  };
  // Mix the remaining seed bytes in and discard the first outputs, as sfc32's authors advise.
  for (let i = 16; i < seed.length; i++) d = (d ^ seed[i]! << ((i % 4) * 8)) >>> 0;
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** Fisher–Yates permutation of `count` pixel positions, deterministic per seed (and per image size). */
export function pixelPermutation(count: number, seed: Uint8Array): Uint32Array {
  const perm = new Uint32Array(count);
  for (let i = 0; i < count; i++) perm[i] = i;
  const next = prng(seed);
  for (let i = count - 1; i > 0; i--) {
    // Unbiased index in [0, i] by rejection sampling.
    const bound = i + 1;
    const limit = 0x1_0000_0000 - (0x1_0000_0000 % bound);
    let r = next();
    while (r >= limit) r = next();
    const j = r % bound;
    const tmp = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = tmp;
  }
  return perm;
}

type Pixels = Uint8Array | Uint8ClampedArray;

/** RGBA pixels moved to shuffled positions: pixel i goes to perm[i]. */
export function scramblePixels(pixels: Pixels, width: number, height: number, seed: Uint8Array): Uint8Array {
  const count = width * height;
  if (pixels.length !== count * 4) throw new Error("pixel buffer does not match the size");
  const perm = pixelPermutation(count, seed);
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < count; i++) {
    const from = i * 4, to = perm[i]! * 4;
    out[to] = pixels[from]!; out[to + 1] = pixels[from + 1]!; out[to + 2] = pixels[from + 2]!; out[to + 3] = pixels[from + 3]!;
  }
  return out;
}

/** The exact inverse of `scramblePixels` with the same seed. */
export function unscramblePixels(pixels: Pixels, width: number, height: number, seed: Uint8Array): Uint8Array {
  const count = width * height;
  if (pixels.length !== count * 4) throw new Error("pixel buffer does not match the size");
  const perm = pixelPermutation(count, seed);
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < count; i++) {
    const to = i * 4, from = perm[i]! * 4;
    out[to] = pixels[from]!; out[to + 1] = pixels[from + 1]!; out[to + 2] = pixels[from + 2]!; out[to + 3] = pixels[from + 3]!;
  }
  return out;
}
