import { hash, randomFillSync } from "node:crypto";

/**
 * A random (version 4, RFC 9562) UUID after `prefix`, as one flat string.
 *
 * `crypto.randomUUID` builds its answer by concatenation, which V8 keeps as a tree of some twenty
 * string pieces: about 490 bytes of heap for as long as the id lives, where the same 36 characters
 * flat take 56. Ids live long here (every audit entry, every domain event, every case), so they are
 * written into a buffer and read out once.
 */
export function randomUuid(prefix = ""): string {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  if (prefix.length + 36 > text.length) text = Buffer.alloc(prefix.length + 36);
  let at = prefix.length === 0 ? 0 : text.write(prefix, 0, "latin1");
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = DASH;
    let byte = pool[poolOffset + i]!;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // variant 10
    text[at++] = HEX_DIGITS[byte >> 4]!;
    text[at++] = HEX_DIGITS[byte & 0x0f]!;
  }
  poolOffset += 16;
  return text.toString("latin1", 0, at);
}

/**
 * `prefix` and an id in UUID form derived from `parts`: the SHA-256 of the parts joined by NUL, so
 * the same parts always give the same id (a replay lands on the same case, sub-case, reservation
 * or review item) and no two splits of one string collide. Stored ids depend on it: never change
 * the form.
 */
export function uuidFromParts(prefix: string, ...parts: readonly string[]): string {
  return uuidFromDigest(prefix, hash("sha256", parts.join("\u0000"), "hex"));
}

/** `prefix` and the first 128 bits of a hex digest in UUID form (8-4-4-4-12). */
function uuidFromDigest(prefix: string, hexDigest: string): string {
  return `${prefix}${hexDigest.slice(0, 8)}-${hexDigest.slice(8, 12)}-${hexDigest.slice(12, 16)}-${hexDigest.slice(16, 20)}-${hexDigest.slice(20, 32)}`;
}

/** Random bytes drawn a few KiB at a time, as crypto.randomUUID itself does. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
let text = Buffer.alloc(128);
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");
const DASH = 0x2d;
