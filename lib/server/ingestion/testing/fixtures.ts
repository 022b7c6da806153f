import fs from "node:fs";
import path from "node:path";

/** The vendored third-party samples (test/fixtures/SOURCES.md says what each holds). */
export const FIXTURES_DIR = path.resolve(__dirname, "../../../../test/fixtures");

export function fixtureText(relative: string): string {
  return fs.readFileSync(path.join(FIXTURES_DIR, relative), "utf8");
}

/** A fixture's events as a list, whatever its framing (one event, a JSON array, NDJSON). */
export function fixtureEvents(relative: string): unknown[] {
  const text = fixtureText(relative);
  if (relative.endsWith(".ndjson"))
    return text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as unknown);
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value : [value];
}

export function lineageRequest(body: string, headers: Record<string, string> = {}): Request {
  return new Request("http://console.test/api/v1/lineage", { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
}
