import fs from "node:fs";
import path from "node:path";

export interface DocExample {
  method: "POST" | "PUT";
  /** Path and query, e.g. /api/v1/datasets/postgres%3A%2F%2F…/partitions. */
  path: string;
  body: string;
  line: number;
}

/**
 * The curl examples of a docs page, in the order the page gives them, as requests: the host is
 * dropped, `$(node -p 'encodeURIComponent("…")')` is evaluated, and `-d '…'` is the body. Examples
 * that send a file (`--data-binary @…`) are left out. So a test runs exactly what a reader copies.
 */
export function docExamples(relative: string): DocExample[] {
  const file = path.resolve(__dirname, "../../..", relative);
  const text = fs.readFileSync(file, "utf8");
  const out: DocExample[] = [];
  const curl =
    /curl -X (POST|PUT) (?:"https:\/\/reparo\.example\.com((?:[^"$]|\$\([^)]*\))*)"|https:\/\/reparo\.example\.com(\S+))((?:[^\n]*\\\n)*[^\n]*?) -d '([\s\S]*?)'\n/g;
  for (const m of text.matchAll(curl)) {
    const pathPart = (m[2] ?? m[3]!).replace(/\$\(node -p 'encodeURIComponent\("([^"]*)"\)'\)/g, (_, s: string) => encodeURIComponent(s));
    out.push({ method: m[1] as "POST" | "PUT", path: pathPart, body: m[5]!, line: text.slice(0, m.index).split("\n").length });
  }
  return out;
}
