/**
 * Standard base64 (RFC 4648 §4, with padding) of bytes, without the platform: Node's Buffer is
 * not in the browser and `atob` is lenient and slow on long texts. Encodes as Buffer's
 * `toString("base64")` does, byte for byte, so text kept by either reads back with the other.
 * Decoding is strict: a text that is not canonical base64 is refused, not half-read.
 *
 * Example: [0x66, 0x6f] ("fo") ⇄ "Zm8=".
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const PAD = "=".charCodeAt(0);
const CHAR_OF = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const NOT_BASE64 = 255;
const VALUE_OF = new Uint8Array(256).fill(NOT_BASE64);
for (let i = 0; i < ALPHABET.length; i++) VALUE_OF[ALPHABET.charCodeAt(i)] = i;
// Text ⇄ bytes in native code (a loop of charCodeAt / fromCharCode is several times slower);
// the characters are ASCII, which both map one to one.
const ASCII_IN = new TextEncoder();
const ASCII_OUT = new TextDecoder("latin1");

export function encodeBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const chars = new Uint8Array(Math.ceil(n / 3) * 4);
  let j = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const triple = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chars[j++] = CHAR_OF[triple >> 18]!;
    chars[j++] = CHAR_OF[(triple >> 12) & 63]!;
    chars[j++] = CHAR_OF[(triple >> 6) & 63]!;
    chars[j++] = CHAR_OF[triple & 63]!;
  }
  if (i < n) {
    const b0 = bytes[i]!;
    const b1 = i + 1 < n ? bytes[i + 1]! : 0;
    chars[j++] = CHAR_OF[b0 >> 2]!;
    chars[j++] = CHAR_OF[((b0 & 3) << 4) | (b1 >> 4)]!;
    chars[j++] = i + 1 < n ? CHAR_OF[(b1 & 15) << 2]! : PAD;
    chars[j++] = PAD;
  }
  return ASCII_OUT.decode(chars);
}

export class Base64Refused extends Error {
  constructor(reason: string) {
    super(`not base64: ${reason}`);
    this.name = "Base64Refused";
  }
}

/** The bytes of a canonical base64 text; throws Base64Refused for anything else. */
export function decodeBase64(text: string): Uint8Array {
  const chars = ASCII_IN.encode(text);
  const n = chars.length;
  if (n !== text.length) throw new Base64Refused("a character outside ASCII");
  if (n % 4 !== 0) throw new Base64Refused(`a length of ${n} is not a multiple of 4`);
  const padding = n === 0 ? 0 : chars[n - 1] !== PAD ? 0 : chars[n - 2] !== PAD ? 1 : 2;
  const bytes = new Uint8Array((n / 4) * 3 - padding);
  const whole = padding === 0 ? n : n - 4;
  let j = 0;
  for (let i = 0; i < whole; i += 4) {
    const v0 = VALUE_OF[chars[i]!]!;
    const v1 = VALUE_OF[chars[i + 1]!]!;
    const v2 = VALUE_OF[chars[i + 2]!]!;
    const v3 = VALUE_OF[chars[i + 3]!]!;
    if ((v0 | v1 | v2 | v3) === NOT_BASE64) throw refusedAt(text, i);
    const triple = (v0 << 18) | (v1 << 12) | (v2 << 6) | v3;
    bytes[j++] = triple >> 16;
    bytes[j++] = (triple >> 8) & 255;
    bytes[j++] = triple & 255;
  }
  if (padding > 0) {
    const v0 = VALUE_OF[chars[whole]!]!;
    const v1 = VALUE_OF[chars[whole + 1]!]!;
    const v2 = padding === 1 ? VALUE_OF[chars[whole + 2]!]! : 0;
    if ((v0 | v1 | v2) === NOT_BASE64) throw refusedAt(text, whole);
    // Canonical: the bits past the last byte are zero (Buffer reads "Zh==" as "Zg==" would).
    if ((padding === 2 ? v1 & 15 : v2 & 3) !== 0) throw new Base64Refused("bits set past the last byte");
    bytes[j++] = (v0 << 2) | (v1 >> 4);
    if (padding === 1) bytes[j++] = ((v1 & 15) << 4) | (v2 >> 2);
  }
  return bytes;
}

function refusedAt(text: string, from: number): Base64Refused {
  const at = [...text.slice(from, from + 4)].findIndex((c) => !ALPHABET.includes(c));
  return new Base64Refused(`character ${JSON.stringify(text[from + at])} at ${from + at}`);
}
