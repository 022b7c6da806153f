// npm run declare -- <reparo.yaml> [--apply] [--reason "…"] — the team's declaration file sent
// to a console (REPARO_URL, default http://localhost:3000) with a `declare` token (REPARO_TOKEN):
// without --apply it prints what would change (a dry run); with it, applies and prints the same.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { DeclarationsResultSchema, type DeclarationChange } from "@/lib/contracts/declarations";

const USAGE = `usage: REPARO_URL=https://reparo.example.com REPARO_TOKEN=<declare token> npm run declare -- <file.yaml> [--apply] [--reason "why"]`;

function show(v: unknown): string {
  return v === null || v === undefined ? "unknown" : typeof v === "object" ? JSON.stringify(v) : String(v);
}

function line(c: DeclarationChange): string {
  return `  ${c.nodeId}  ${c.fact}: ${show(c.before)}${c.beforeSource ? ` (${c.beforeSource})` : ""} → ${show(c.after)}`;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: process.argv.slice(2),
      options: { apply: { type: "boolean" }, reason: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    console.error(`reparo: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const file = args.positionals[0];
  if (!file) {
    console.error(`reparo: the declaration file is required\n\n${USAGE}`);
    return 2;
  }
  const url = new URL("/api/v1/declarations", process.env.REPARO_URL ?? "http://localhost:3000");
  const token = process.env.REPARO_TOKEN;
  const res = await fetch(url, {
    method: "PUT",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({
      declarations: fs.readFileSync(file, "utf8"),
      reason: args.values.reason ?? `declaration file ${file}`,
      dryRun: !args.values.apply,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) {
    console.error(`reparo: ${res.status} ${body.message ?? res.statusText}`);
    return 1;
  }
  const result = DeclarationsResultSchema.parse(body);
  const verb = result.applied ? "changed" : "would change";
  console.log(`${url.origin}: ${result.changes.length} ${result.changes.length === 1 ? "fact" : "facts"} ${verb}, ${result.unchanged} already held`);
  for (const c of result.changes) console.log(line(c));
  if (result.applied && result.refolded.runs > 0)
    console.log(`  stored runs folded again: ${result.refolded.runs} (publishes on new units: ${result.refolded.publishes})`);
  if (!result.applied && result.changes.length > 0) console.log("dry run: nothing was written; run again with --apply");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`reparo: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
