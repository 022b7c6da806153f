/**
 * Records what the Dagster source (lib/server/sources/dagster) reads from the lab's REAL Dagster:
 * each of its GraphQL requests, exactly as the product sends them, with Dagster's answer.
 *
 *   npx tsx peers/dagster/record-source.ts [out dir] [base URL]
 *   (default test/fixtures/peers/dagster/source, http://127.0.0.1:23070)
 *
 * Writes {"request": {"method", "path", "body": {query, variables}}, "response": <answer>} files:
 * assets.json, runs.json (every page concatenated as a list), failures-<run id>.json for each
 * failed run. Run it after `bash peers/lab.sh schedule dagster <first> <last>` (docs/peers-lab.md).
 */
import fs from "node:fs";
import path from "node:path";
import { RUNS_PAGE, runsVariables, SOURCE_ASSETS_QUERY, SOURCE_RUN_FAILURES_QUERY, SOURCE_RUNS_QUERY, LOG_PAGE } from "../../lib/server/sources/dagster/dagster-queries";

const out = path.resolve(process.argv[2] ?? "test/fixtures/peers/dagster/source");
const base = process.argv[3] ?? "http://127.0.0.1:23070";

interface Exchange {
  request: { method: "POST"; path: "/graphql"; body: { query: string; variables: Record<string, unknown> } };
  response: { data?: Record<string, unknown>; errors?: unknown[] };
}

async function ask(query: string, variables: Record<string, unknown>): Promise<Exchange> {
  const res = await fetch(`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
  const response = (await res.json()) as Exchange["response"];
  if (res.status !== 200 || response.errors) throw new Error(`Dagster answered ${res.status}: ${JSON.stringify(response).slice(0, 2000)}`);
  return { request: { method: "POST", path: "/graphql", body: { query, variables } }, response };
}

function save(name: string, value: unknown): void {
  fs.writeFileSync(path.join(out, name), `${JSON.stringify(value, null, 1)}\n`);
  console.log(`[record-source] ${name} (${fs.statSync(path.join(out, name)).size} bytes)`);
}

async function main(): Promise<void> {
  fs.mkdirSync(out, { recursive: true });
  save("assets.json", await ask(SOURCE_ASSETS_QUERY, {}));
  const pages: Exchange[] = [];
  for (let after: string | null = null; ; ) {
    const page: Exchange = await ask(SOURCE_RUNS_QUERY, runsVariables(null, after));
    pages.push(page);
    const results = ((page.response.data?.runsOrError as { results?: { runId: string }[] }) ?? {}).results ?? [];
    if (results.length < RUNS_PAGE) break;
    after = results.at(-1)!.runId;
  }
  save("runs.json", pages);
  const runs = pages.flatMap((p) => (p.response.data?.runsOrError as { results: { runId: string; stepStats: { status: string | null }[] }[] }).results);
  for (const run of runs.filter((r) => r.stepStats.some((s) => s.status === "FAILURE")))
    save(`failures-${run.runId}.json`, await ask(SOURCE_RUN_FAILURES_QUERY, { runId: run.runId, limit: LOG_PAGE }));
  save("version.json", await ask("{ version }", {}));
}

void main().catch((e: unknown) => {
  console.error(`[record-source] ${(e as Error).message}`);
  process.exit(1);
});
