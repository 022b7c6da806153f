/**
 * OpenLineage ingestion throughput (issue 5's bar: ≥ 2,000 events/s into SQLite and PostgreSQL).
 * Realistic traffic: an Airflow-shaped DAG of 20 tasks run daily; each task run sends START
 * (with inputs) and COMPLETE (with outputs, row counts, nominal time and the DAG run as parent).
 * Events are posted in batches through the same code as POST /api/v1/lineage (parse, validate,
 * one transaction per batch); START and COMPLETE of a run land in different batches, so runs
 * are re-folded and updated as in production. Database creation is not timed.
 *
 *   [REPARO_TEST_PG_URL=postgresql://postgres@127.0.0.1:5432/postgres] npx tsx bench/ingest-bench.ts [--json] [--events 20000] [--batch 500]
 * (PostgreSQL is measured too when REPARO_TEST_PG_URL is set.)
 */
import { createTestDatabase, providersUnderTest, type Provider } from "../lib/server/testing/test-database";
import { receiveLineageRequest } from "../lib/server/http/ingestion-requests";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const TOTAL = Number(flag("events", "20000"));
const BATCH = Number(flag("batch", "500"));
const TASKS = 20;
const DAY = 86_400_000;
// Two years back: every event of the default 20,000 (500 days) lies in the past, as a producer's would.
const T0 = Date.UTC(2024, 0, 1);

function taskEvents(day: number, task: number): [object, object] {
  const runId = `run-${day}-${task}`;
  const nominal = new Date(T0 + day * DAY).toISOString();
  const ns = "postgres://warehouse:5432";
  const parent = { run: { runId: `dag-${day}` }, job: { namespace: "airflow", name: "orders_daily" } };
  const facets = { nominalTime: { nominalStartTime: nominal }, parent };
  const job = { namespace: "airflow", name: `orders_daily.task_${task}` };
  const inputs = [{ namespace: ns, name: `public.table_${task}`, facets: { version: { datasetVersion: `v${day}` } } }];
  const outputs = [{ namespace: ns, name: `public.table_${task + 1}`, outputFacets: { outputStatistics: { rowCount: 1000 + task } } }];
  const start = T0 + day * DAY + DAY + task * 60_000;
  return [
    { eventType: "START", eventTime: new Date(start).toISOString(), producer: "bench", run: { runId, facets }, job, inputs, outputs: [] },
    { eventType: "COMPLETE", eventTime: new Date(start + 30_000).toISOString(), producer: "bench", run: { runId, facets }, job, inputs: [], outputs },
  ];
}

/** START events of one slice of runs, then their COMPLETE events in the next batch. */
function batches(): string[] {
  const starts: object[] = [];
  const completes: object[] = [];
  for (let i = 0; starts.length + completes.length < TOTAL; i++) {
    const [s, c] = taskEvents(Math.floor(i / TASKS), i % TASKS);
    starts.push(s);
    completes.push(c);
  }
  const half = BATCH / 2;
  const out: string[] = [];
  for (let i = 0; i < starts.length; i += half) {
    // each batch: COMPLETEs of the previous slice + STARTs of this slice
    const prev = i === 0 ? [] : completes.slice(i - half, i);
    out.push([...prev, ...starts.slice(i, i + half)].map((e) => JSON.stringify(e)).join("\n"));
  }
  out.push(
    completes
      .slice(starts.length - (starts.length % half || half))
      .map((e) => JSON.stringify(e))
      .join("\n"),
  );
  return out;
}

async function measure(provider: Provider): Promise<{ provider: Provider; events: number; seconds: number; eventsPerSecond: number }> {
  const t = await createTestDatabase(provider);
  try {
    const bodies = batches();
    let events = 0;
    const started = performance.now();
    for (const body of bodies) {
      const res = await receiveLineageRequest(new Request("http://bench/api/v1/lineage", { method: "POST", body }), t.db);
      if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      events += ((await res.json()) as { written: { events: number } }).written.events;
    }
    const seconds = (performance.now() - started) / 1000;
    return { provider, events, seconds: Number(seconds.toFixed(2)), eventsPerSecond: Math.round(events / seconds) };
  } finally {
    await t.drop();
  }
}

async function main(): Promise<void> {
  const providers = providersUnderTest();
  const results = [];
  for (const p of providers) results.push(await measure(p));
  console.log(`ingest bench: ${TOTAL} events in batches of ${BATCH}`);
  console.log("provider     events   seconds   events/s");
  for (const r of results)
    console.log(`${r.provider.padEnd(12)} ${String(r.events).padStart(6)} ${String(r.seconds).padStart(9)} ${String(r.eventsPerSecond).padStart(10)}`);
  if (args.includes("--json")) console.log(JSON.stringify({ bench: "ingest", batch: BATCH, results }));
}

void main();
