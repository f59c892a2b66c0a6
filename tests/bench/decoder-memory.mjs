// `node tests/bench/decoder-memory.mjs` (Node 22: `npx node …` or through npm): the image decoder's peak memory per
// declared size, in a fresh process per size. The worker refuses images over MAX_IMAGE_PIXELS (worker/contract/media.ts)
// before decoding; this is the measurement behind that number. Prints one line per size: pixels, the decoded RGBA
// bytes, and the process's peak resident growth while decoding (the codec's WASM memory plus the copy it returns).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SIDES = [1000, 2048, 3000, 4000, 6000];

function grayPng(side) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + side * 4, 0x80);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: side }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

if (process.argv[2] === "--one") {
  const side = Number(process.argv[3]);
  const png = grayPng(side);
  const mod = await import(path.join(ROOT, "node_modules/@jsquash/png/decode.js"));
  globalThis.ImageData ??= class { constructor(data, width, height) { Object.assign(this, { data, width, height }); } };
  await mod.init(await WebAssembly.compile(readFileSync(path.join(ROOT, "node_modules/@jsquash/png/codec/pkg/squoosh_png_bg.wasm"))));
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 1);
  const image = await mod.default(png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength));
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sample);
  console.log(JSON.stringify({ side, file: png.length, decoded: image.data.byteLength, peak: peak - before }));
} else {
  const mb = (n) => `${(n / 1e6).toFixed(0)} MB`;
  console.log("side × side   pixels    file       decoded RGBA   peak growth   peak / decoded");
  for (const side of SIDES) {
    const line = JSON.parse(execFileSync(process.execPath, ["--expose-gc", import.meta.filename, "--one", String(side)], { encoding: "utf8" }));
    console.log(`${String(side).padStart(5)} × ${String(side).padEnd(5)} ${(side * side / 1e6).toFixed(1).padStart(5)} MP  ${`${(line.file / 1e3).toFixed(0)} KB`.padStart(8)}  ${mb(line.decoded).padStart(12)}  ${mb(line.peak).padStart(12)}  ${(line.peak / line.decoded).toFixed(2).padStart(14)}`);
  }
}
