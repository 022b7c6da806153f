/**
 * The unit matrix bench's world: PIPELINES × CHAIN daily datasets over DAYS days, written
 * through the repositories (Prisma createMany for the catalog, bulkInsert for the ledger),
 * with the same kinds of trouble the demo has, spread across the range: a failed unit with
 * partial rows and its downstream blocked, an append retry that duplicated, a divergent count.
 */
import type { Db } from "../lib/server/db/client";
import { bulkInsert, type Column } from "../lib/server/repositories/sql/bulk-sql";

export interface WorldSize {
  pipelines: number;
  chain: number;
  days: number;
}

const DAY = 86_400_000;
/** The last unit: the day before the bench runs "now" (2026-11-29), so every unit is closed. */
export const LAST_DAY_MS = Date.UTC(2026, 10, 28);
const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const PUBLISH: Column[] = ["id", "datasetId", "unitKey", "runId", "publishedAt", "inputVersion", "codeVersion", "rowCount"].map((name) => ({
  name,
  type: name === "publishedAt" ? "timestamp" : name === "rowCount" ? "int" : "text",
}));
const ATTEMPT: Column[] = ["id", "runId", "taskId", "unitKey", "tryNumber", "status", "rowsWritten", "error", "codeVersion", "startedAt", "endedAt"].map(
  (name) => ({
    name,
    type: name === "startedAt" || name === "endedAt" ? "timestamp" : name === "tryNumber" || name === "rowsWritten" ? "int" : "text",
  }),
);

/** Which task of the chain fails on day d (or -1): one pipeline-day in 97. */
const failingTask = (p: number, d: number, chain: number) => ((d + p * 13) % 97 === 0 ? (d + p) % chain : -1);
const duplicated = (p: number, d: number) => (d + p * 7) % 113 === 0;
const divergent = (p: number, d: number) => (d + p * 5) % 131 === 0;

export async function buildMatrixWorld(db: Db, size: WorldSize): Promise<{ units: number; publishes: number; attempts: number }> {
  const firstMs = LAST_DAY_MS - (size.days - 1) * DAY;
  const def = JSON.stringify({ kind: "time", grain: "day", start: dayKey(firstMs), end: dayKey(LAST_DAY_MS), timezone: "UTC" });
  let publishes = 0;
  let attempts = 0;
  for (let p = 0; p < size.pipelines; p++) {
    const ns = `bench${String(p).padStart(2, "0")}`;
    const pipeline = await db.pipeline.create({ data: { namespace: ns, name: ns } });
    const names = Array.from({ length: size.chain }, (_, i) => `step_${String(i).padStart(2, "0")}`);
    await db.dataset.createMany({
      data: names.map((n) => ({ nodeId: `dataset:${ns}:${n}`, namespace: ns, name: n, pipelineId: pipeline.id, partitionDef: def, partitionsDeclared: true })),
    });
    await db.task.createMany({
      data: names.map((n, i) => ({
        nodeId: `job:${ns}:${n}`,
        namespace: ns,
        name: n,
        pipelineId: pipeline.id,
        writeMode: i === 1 ? "append" : "replace",
        sideEffect: "none",
        dependsOnOwnPast: false,
        publishMode: "per_unit",
      })),
    });
    const datasets = await db.dataset.findMany({ where: { pipelineId: pipeline.id }, orderBy: { nodeId: "asc" } });
    const tasks = await db.task.findMany({ where: { pipelineId: pipeline.id }, orderBy: { nodeId: "asc" } });
    const validFrom = new Date(firstMs - DAY);
    await db.lineageEdge.createMany({
      data: tasks.flatMap((t, i) => [
        { taskId: t.id, datasetId: datasets[i]!.id, direction: "write", validFrom },
        ...(i > 0 ? [{ taskId: t.id, datasetId: datasets[i - 1]!.id, direction: "read", validFrom }] : []),
      ]),
    });
    const ctx = { p, ns, pipelineId: pipeline.id, firstMs, size, datasetIds: datasets.map((d) => d.id), taskIds: tasks.map((t) => t.id) };
    for (let d0 = 0; d0 < size.days; d0 += 200) {
      const batch = pipelineDays(ctx, d0, Math.min(size.days, d0 + 200));
      await db.$transaction(
        async (tx) => {
          await tx.run.createMany({ data: batch.runs });
          await bulkInsert(tx, "Attempt", ATTEMPT, batch.attempts);
          await bulkInsert(tx, "Publish", PUBLISH, batch.publishes);
        },
        { timeout: 600_000 },
      );
      publishes += batch.publishes.length;
      attempts += batch.attempts.length;
    }
    await db.sourceCount.createMany({
      data: Array.from({ length: size.days }, (_, d) => ({
        datasetId: datasets[0]!.id,
        unitKey: dayKey(firstMs + d * DAY),
        rowCount: 1000 + (d % 50),
        measuredAt: new Date(firstMs + (d + 1) * DAY),
      })),
    });
  }
  return { units: size.pipelines * size.chain * size.days, publishes, attempts };
}

interface Ctx {
  p: number;
  ns: string;
  pipelineId: string;
  firstMs: number;
  size: WorldSize;
  datasetIds: string[];
  taskIds: string[];
}

function pipelineDays(c: Ctx, from: number, to: number) {
  const runs: { id: string; pipelineId: string; kind: string; status: string; codeVersion: string; startedAt: Date; endedAt: Date }[] = [];
  const attempts: Record<string, unknown>[] = [];
  const publishes: Record<string, unknown>[] = [];
  for (let d = from; d < to; d++) {
    const unitKey = dayKey(c.firstMs + d * DAY);
    const t0 = c.firstMs + (d + 1) * DAY + 3_600_000;
    const runId = `run-${c.ns}-${d}`;
    const fails = failingTask(c.p, d, c.size.chain);
    runs.push({
      id: runId,
      pipelineId: c.pipelineId,
      kind: "scheduled",
      status: fails >= 0 ? "partial" : "succeeded",
      codeVersion: "v1",
      startedAt: new Date(t0),
      endedAt: new Date(t0 + c.size.chain * 60_000),
    });
    for (let i = 0; i < c.size.chain; i++) {
      const start = t0 + i * 60_000;
      const rows = (i === 0 ? 1000 : 990) + (d % 50);
      const base = { runId, taskId: c.taskIds[i], unitKey, codeVersion: `step_${i}@1`, error: null };
      if (fails >= 0 && i > fails) {
        attempts.push({ ...base, id: `${runId}-${i}-1`, tryNumber: 1, status: "upstream_failed", rowsWritten: null, startedAt: null, endedAt: null });
        continue;
      }
      if (i === fails) {
        attempts.push({
          ...base,
          id: `${runId}-${i}-1`,
          tryNumber: 1,
          status: "failed",
          rowsWritten: 120,
          error: "connection reset after row 120",
          startedAt: new Date(start),
          endedAt: new Date(start + 30_000),
        });
        continue;
      }
      const dup = i === 1 && duplicated(c.p, d);
      if (dup)
        attempts.push({
          ...base,
          id: `${runId}-${i}-0`,
          tryNumber: 1,
          status: "failed",
          rowsWritten: rows / 2,
          error: "timeout",
          startedAt: new Date(start - 20_000),
          endedAt: new Date(start - 10_000),
        });
      attempts.push({
        ...base,
        id: `${runId}-${i}-1`,
        tryNumber: dup ? 2 : 1,
        status: "succeeded",
        rowsWritten: rows,
        startedAt: new Date(start),
        endedAt: new Date(start + 30_000),
      });
      const rowCount = i === 0 && divergent(c.p, d) ? Math.round(rows * 0.6) : rows;
      publishes.push({
        id: `${runId}-${i}`,
        datasetId: c.datasetIds[i],
        unitKey,
        runId,
        publishedAt: new Date(start + 30_000),
        inputVersion: i === 0 ? "raw@1" : `step_${i - 1}@1`,
        codeVersion: `step_${i}@1`,
        rowCount,
      });
    }
  }
  return { runs, attempts, publishes };
}
