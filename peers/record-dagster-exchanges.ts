/**
 * Records what the REAL Dagster of the peers lab answers to the requests Reparo's own Dagster
 * adapter sends (lib/server/orchestrators/dagster.ts through dagster-transport.ts): the adapter is
 * driven here as a repair drives it, and every request it makes is written with Dagster's answer
 * to test/fixtures/peers/dagster/adapter/NN-<what>.json, which
 * test/peers/fake-dagster-calibration.test.ts replays against the fake.
 *
 *   bash peers/lab.sh record-adapter dagster      (brings the lab up, runs the days, records, stops)
 *   npx tsx peers/record-dagster-exchanges.ts [out dir]   (against a lab Dagster that is up and has run
 *                                                          2026-08-26 … 31, control row stg_orders 08-30 clean)
 *
 * The repair recorded: one wave, stg_orders and fct_orders × 2026-08-29 and 08-30 (one backfill),
 * stg_orders failing again on 08-30 from the control row; then the refusals a commander can meet.
 * Nothing secret is written: the lab's webserver is an open OSS one (the one token sent, to show
 * that it is not looked at, is a made-up value), and a request's headers are not recorded.
 */
import fs from "node:fs";
import path from "node:path";
import { DagsterConnectionSchema } from "@/lib/contracts/orchestrators";
import { dagsterOrchestrator, type DagsterWaveHandle } from "@/lib/server/orchestrators/dagster";
import { dagsterTransport } from "@/lib/server/orchestrators/dagster-transport";
import type { DispatchPlan, PairProgress, TaskFacts, WaveHandle } from "@/lib/server/orchestrators/port";

const BASE_URL = process.env.REPARO_LAB_DAGSTER_URL ?? "http://127.0.0.1:23070";
const OUT = path.resolve(process.argv[2] ?? "test/fixtures/peers/dagster/adapter");
const POLL_MS = 1_000;
const POLL_LIMIT_MS = 600_000;

export interface RecordedExchange {
  readonly what: string;
  readonly request: { method: string; path: string; body: { query: string; variables: Record<string, unknown> } };
  readonly response: { status: number; body: unknown };
}

const recorded: RecordedExchange[] = [];
let what = "";
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const res = await realFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  const text = await res.clone().text();
  recorded.push({
    what,
    request: { method: init?.method ?? "GET", path: url.pathname, body: JSON.parse(String(init?.body)) as RecordedExchange["request"]["body"] },
    response: { status: res.status, body: text ? (JSON.parse(text) as unknown) : null },
  });
  return res;
};

const task = (name: string): TaskFacts => ({
  taskNodeId: `job:dagster-lab:${name}`,
  name,
  namespace: "dagster-lab",
  pipeline: "lab_orders",
  sideEffect: "none",
  writeMode: "overwrite",
});

function planOf(pairs: readonly [task: string, unitKey: string][]): DispatchPlan {
  const tasks = [...new Set(pairs.map(([t]) => t))].map(task);
  return {
    incidentId: "lab-calibration",
    runId: "lab-calibration-run",
    repairNumber: 1,
    pairs: pairs.map(([t, unitKey]) => ({ taskNodeId: `job:dagster-lab:${t}`, unitKey, wave: 0 })),
    waves: 1,
    tasks: new Map(tasks.map((t) => [t.taskNodeId, t])),
    excludedTasks: new Set(["job:dagster-lab:finance_export"]),
    windowOf: (_t, unit) => ({ start: new Date(`${unit}T00:00:00Z`), end: new Date(Date.parse(`${unit}T00:00:00Z`) + 86_400_000) }),
    unitAt: (_t, at) => at.toISOString().slice(0, 10),
    parameterOverrides: {},
    idempotencyKeys: {},
    previous: {},
    launchedAt: null,
  };
}

/** What a poll's answer says, without what moves on its own (nothing does: ids and statuses only). */
const pollState = (e: RecordedExchange) => JSON.stringify(e.response.body);
const isDone = (pairs: readonly PairProgress[]) => pairs.every((p) => p.status === "succeeded" || p.status === "failed");

async function main(): Promise<void> {
  const connection = DagsterConnectionSchema.parse({ kind: "dagster", baseUrl: BASE_URL });
  const dagster = dagsterOrchestrator(connection);
  const plan = planOf([
    ["stg_orders", "2026-08-29"],
    ["stg_orders", "2026-08-30"],
    ["fct_orders", "2026-08-29"],
    ["fct_orders", "2026-08-30"],
  ]);

  what = "preview";
  await dagster.preview(plan);
  what = "launch";
  const { handle } = await dagster.dispatchWave(plan, 0);
  // Every poll is made (as the repair makes them); only those whose answer changed are kept.
  what = "poll";
  const t0 = Date.now();
  let done = false;
  while (!done) {
    if (Date.now() - t0 > POLL_LIMIT_MS) throw new Error(`the backfill did not end within ${POLL_LIMIT_MS / 1000} s`);
    const before = recorded.length;
    const { pairs } = await dagster.poll(plan, 0, handle, { deadline: Number.MAX_SAFE_INTEGER });
    const last = recorded.at(-1)!;
    const kept = recorded.slice(0, before).filter((e) => e.what === "poll");
    if (kept.length > 0 && pollState(kept.at(-1)!) === pollState(last)) recorded.splice(before);
    const status = (last.response.body as { data: { partitionBackfillOrError: { status: string } } }).data.partitionBackfillOrError.status;
    done = isDone(pairs) && status !== "REQUESTED";
    if (!done) await new Promise((r) => setTimeout(r, POLL_MS));
  }
  console.log(`[record] the backfill ended after ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  what = "cancel-finished";
  await dagster.cancel(plan, handle).catch((e: Error) => console.log(`[record] cancel: ${e.message}`));

  const refused = async (label: string, f: () => Promise<unknown>) => {
    what = label;
    await f().then(
      () => console.log(`[record] ${label}: accepted`),
      (e: Error) => console.log(`[record] ${label}: ${e.message}`),
    );
  };
  await refused("launch-unknown-partition", () => dagster.dispatchWave(planOf([["stg_orders", "2026-09-15"]]), 0));
  await refused("launch-unknown-asset", () => dagster.dispatchWave(planOf([["no_such_asset", "2026-08-29"]]), 0));
  const nowhere: DagsterWaveHandle = { backfillIds: ["nosuchid"], pairsByBackfill: { nosuchid: [["job:dagster-lab:stg_orders", "2026-08-29"]] } };
  await refused("poll-unknown-backfill", () => dagster.poll(plan, 0, nowhere as unknown as WaveHandle, { deadline: Number.MAX_SAFE_INTEGER }));
  // An open OSS webserver has no auth: a token (Dagster+'s header) is not looked at.
  process.env.REPARO_SECRET_LAB_DAGSTER_TOKEN = "not-a-dagster-plus-token";
  const withToken = DagsterConnectionSchema.parse({ kind: "dagster", baseUrl: BASE_URL, credentials: { env: "REPARO_SECRET_LAB_DAGSTER_TOKEN" } });
  await refused("preview-with-a-token", () => dagsterOrchestrator(withToken).preview(plan));
  await refused("bad-request", () => dagsterTransport(connection).graphql("query ReparoBadRequest { partitionBackfillOrError { id } }", {}, "a request Dagster refuses"));

  fs.mkdirSync(OUT, { recursive: true });
  for (const f of fs.readdirSync(OUT)) if (/^\d\d-.*\.json$/.test(f)) fs.rmSync(path.join(OUT, f));
  recorded.forEach((e, i) => fs.writeFileSync(path.join(OUT, `${String(i + 1).padStart(2, "0")}-${e.what}.json`), `${JSON.stringify(e, null, 1)}\n`));
  console.log(`[record] ${recorded.length} exchanges in ${OUT}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
