// npm run import:dbt -- <target dir> [--namespace <job namespace>] [--dataset-namespace <ns>]
// Reads <dir>/manifest.json (+ run_results.json when present) into the database DATABASE_URL names.
import fs from "node:fs";
import path from "node:path";
import { DbtImportBodySchema, type DbtImportResult } from "@/lib/contracts/ingestion-dbt";
import { createDb } from "@/lib/server/repositories/database";
import { describeTarget, ensureDatabase } from "@/lib/server/db/ensure-database";
import { importDbtArtifacts } from "@/lib/server/ingestion/import-dbt-artifacts";
import { runCli } from "./run-cli";

const USAGE = "usage: npm run import:dbt -- <dbt target dir> [--namespace <job namespace>] [--dataset-namespace <dataset namespace>]";

function parseArgs(argv: string[]): { dir: string; namespace?: string; datasetNamespace?: string } {
  const out: { dir?: string; namespace?: string; datasetNamespace?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--namespace" || a === "--dataset-namespace") {
      const value = argv[++i];
      if (!value) throw new Error(`${a} needs a value\n${USAGE}`);
      out[a === "--namespace" ? "namespace" : "datasetNamespace"] = value;
    } else if (!out.dir && !a.startsWith("--")) out.dir = a;
    else throw new Error(`unexpected argument ${a}\n${USAGE}`);
  }
  if (!out.dir) throw new Error(USAGE);
  return { ...out, dir: out.dir };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

function report(r: DbtImportResult): string {
  const lines = [
    `dbt project ${r.project} (${r.adapter}, manifest v${r.manifestVersion}) → pipeline ${r.pipeline}`,
    `  nodes: ${Object.entries(r.nodes)
      .map(([k, v]) => `${v} ${k}`)
      .join(", ")}${
      Object.keys(r.ignored).length
        ? ` (ignored: ${Object.entries(r.ignored)
            .map(([k, v]) => `${v} ${k}`)
            .join(", ")})`
        : ""
    }`,
    `  ${r.tasks} tasks, ${r.datasets} datasets under ${r.datasetNamespace}, ${r.dependencies} dependencies`,
    `  written: ${Object.entries(r.written)
      .map(([k, v]) => `${v} ${k}`)
      .join(", ")}`,
  ];
  if (r.run)
    lines.push(
      `  run ${r.run.invocationId} (${r.run.command ?? "?"}): ${r.run.status}; attempts ${Object.entries(r.run.attempts)
        .map(([k, v]) => `${v} ${k}`)
        .join(", ")}`,
    );
  if (r.run?.unknownNodes.length) lines.push(`  run results for nodes not in the manifest: ${r.run.unknownNodes.join(", ")}`);
  if (r.dangling.length)
    lines.push(`  dangling (named by parent_map/child_map/depends_on, not in the manifest): ${r.dangling.length}`, ...r.dangling.map((d) => `    ${d}`));
  for (const w of r.warnings) lines.push(`  warning: ${w}`);
  return lines.join("\n");
}

runCli(async () => {
  const args = parseArgs(process.argv.slice(2));
  const runResultsFile = path.join(args.dir, "run_results.json");
  const parsed = DbtImportBodySchema.safeParse({
    manifest: readJson(path.join(args.dir, "manifest.json")),
    run_results: fs.existsSync(runResultsFile) ? readJson(runResultsFile) : undefined,
    namespace: args.namespace,
    datasetNamespace: args.datasetNamespace,
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  const { target } = await ensureDatabase();
  const db = createDb(target);
  const result = await importDbtArtifacts(db, parsed.data).finally(() => db.$disconnect());
  console.log(`${describeTarget(target)}: imported ${args.dir}\n${report(result)}`);
});
