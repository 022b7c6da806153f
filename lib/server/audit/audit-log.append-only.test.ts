import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const SKIP = new Set(["node_modules", ".git", "generated", "test-results"]);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".next")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !entry.name.endsWith(".test.ts")) out.push(full);
  }
  return out;
}

// The audit log is append-only: no code path may update or delete an entry. Tests may tamper
// with it by raw SQL to prove verification catches it, which is why *.test.ts is excluded.
describe("the audit log has no update or delete path in code", () => {
  const files = ["app", "lib", "scripts", "components", "prisma"].flatMap((d) => (fs.existsSync(path.join(ROOT, d)) ? sourceFiles(path.join(ROOT, d)) : []));
  const forbidden = [
    /auditEntry\s*\.\s*(update|updateMany|upsert|delete|deleteMany)\b/i,
    /UPDATE\s+"?AuditEntry"?/i,
    /DELETE\s+FROM\s+"?AuditEntry"?/i,
    /TRUNCATE[^;]*AuditEntry/i,
  ];

  it("scans the source (sanity: the appender is among the files)", () => {
    expect(files.some((f) => f.endsWith(path.join("audit", "append-audit.ts")))).toBe(true);
  });

  it("no file updates, deletes or truncates AuditEntry", () => {
    const hits = files.flatMap((f) => {
      const text = fs.readFileSync(f, "utf8");
      return forbidden.filter((re) => re.test(text)).map((re) => `${path.relative(ROOT, f)} matches ${re}`);
    });
    expect(hits).toEqual([]);
  });
});
