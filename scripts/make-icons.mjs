// Draws the app icons (web/public/icon-192.png, icon-512.png): a white leaf on the brand green, full
// bleed so "maskable" launchers can crop it to any shape. Plain Node (zlib), no image library.
// Run: node scripts/make-icons.mjs   (the PNGs are committed; re-run only to change the design)
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const GREEN = [0x15, 0x80, 0x3d];
const WHITE = [0xff, 0xff, 0xff];

/** Inside the leaf: the intersection of two discs (a vesica), tilted 45°, plus a stem. Coordinates 0..1. */
function leafCoverage(x, y) {
  // Rotate by -45° around the centre.
  const cx = x - 0.5;
  const cy = y - 0.5;
  const u = (cx + cy) / Math.SQRT2;
  const v = (cy - cx) / Math.SQRT2;
  const r = 0.3;
  const offset = 0.17;
  const inLeaf = (u - 0) ** 2 + (v - offset) ** 2 < r * r && (u - 0) ** 2 + (v + offset) ** 2 < r * r;
  const vein = Math.abs(v) < 0.012 && Math.abs(u) < 0.2;
  const stem = Math.abs(v) < 0.02 && u > 0.18 && u < 0.3;
  if (vein) return 'vein';
  return inLeaf || stem;
}

function crc32(buf) {
  let c;
  const table = [];
  for (let n = 0; n < 256; n++) {
    c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  let crc = 0xffffffff;
  for (const b of buf) crc = table[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size) {
  const samples = 4; // 4x4 supersampling for smooth edges
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let px = 0; px < size; px++) {
      let white = 0;
      for (let sy = 0; sy < samples; sy++)
        for (let sx = 0; sx < samples; sx++) {
          const hit = leafCoverage((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          if (hit === true) white += 1;
        }
      const a = white / (samples * samples);
      for (let i = 0; i < 3; i++) row[1 + px * 3 + i] = Math.round(GREEN[i] * (1 - a) + WHITE[i] * a);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const size of [192, 512]) writeFileSync(new URL(`../web/public/icon-${size}.png`, import.meta.url), png(size));
console.log('wrote web/public/icon-192.png and icon-512.png');
