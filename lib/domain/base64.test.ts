import { describe, expect, it } from "vitest";
import { Base64Refused, decodeBase64, encodeBase64 } from "./base64";

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

// A deterministic spread of bytes, every value 0..255 among them.
function sample(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) out[i] = (x = (x * 1_103_515_245 + 12_345) >>> 0) >>> 24;
  return out;
}

describe("base64", () => {
  it("encodes RFC 4648's test vectors and decodes them back", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "Zg=="],
      ["fo", "Zm8="],
      ["foo", "Zm9v"],
      ["foob", "Zm9vYg=="],
      ["fooba", "Zm9vYmE="],
      ["foobar", "Zm9vYmFy"],
    ];
    for (const [plain, encoded] of vectors) {
      expect(encodeBase64(bytes(plain))).toBe(encoded);
      expect(decodeBase64(encoded)).toEqual(bytes(plain));
    }
    expect(encodeBase64(Uint8Array.of(255, 254, 253, 0, 13))).toBe("//79AA0=");
  });

  // States kept before this encoder were written with Node's Buffer: both must read each other,
  // across the slice boundary (12,288 bytes) and every padding.
  it("agrees with Node's Buffer byte for byte, both ways", () => {
    for (const length of [1, 2, 3, 255, 12_287, 12_288, 12_289, 36_501]) {
      const b = sample(length, length);
      const theirs = Buffer.from(b).toString("base64");
      expect(encodeBase64(b)).toBe(theirs);
      expect(Buffer.compare(decodeBase64(theirs), b)).toBe(0);
    }
  });

  it("refuses a text that is not canonical base64", () => {
    for (const text of ["Zm9", "Zm9v!A==", "Zg=a", "Z===", "====", "Zh==", "Zm9=", "Zg==Zm8=", "Zm 9v", "Zm9vé==="]) {
      expect(() => decodeBase64(text), text).toThrow(Base64Refused);
    }
  });
});
