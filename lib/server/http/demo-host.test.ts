import { describe, expect, it } from "vitest";
import { demoHostRefusal } from "./demo-host";

describe("which Host a demo console answers", () => {
  const demo = { REPARO_DEMO: "1" };
  it("loopback names, with or without a port", () => {
    for (const host of ["localhost:3000", "127.0.0.1:3000", "127.0.0.1", "[::1]:3000", "LOCALHOST:3000", "127.0.1.1:80"])
      expect(demoHostRefusal(host, demo), host).toBeNull();
  });
  it("any other name is refused: a rebound DNS name reads nothing", () => {
    for (const host of ["evil.example:3000", "evil.example", "localhost.evil.example", "127.0.0.1.nip.io:3000", "10.0.0.5:3000"])
      expect(demoHostRefusal(host, demo), host).toMatch(/^this demo console answers only at localhost/);
  });
  it("REPARO_PUBLIC_URL's host is this console's", () => {
    expect(demoHostRefusal("reparo.example.com", { ...demo, REPARO_PUBLIC_URL: "https://reparo.example.com" })).toBeNull();
  });
  it("outside demo mode the identity comes from a sign-in, not from reaching the console: no check", () => {
    expect(demoHostRefusal("evil.example", {})).toBeNull();
  });
});
