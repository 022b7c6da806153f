import Database from "better-sqlite3";

const DAY = 86_400_000;
export const BENCH_START = "2000-01-01";
const T0 = Date.parse(`${BENCH_START}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");
const dayKey = (d: number) => new Date(T0 + d * DAY).toISOString().slice(0, 10);

export interface WorldShape {
  chains: number;
  depth: number;
  days: number;
  incidents: number;
}

/**
 * A warehouse big enough to hurt: `chains` pipelines of `depth` daily datasets each (raw →
 * stage_1 → … ), every unit published once by a scheduled run with its succeeded attempt, plus
 * `incidents` failures each repaired by a repair run with its plan, validation and, now and then,
 * a mark-success or skip. Written with raw prepared statements in one transaction per chain:
 * Prisma's per-row create would take the better part of an hour for a million rows.
 */
export function buildWorld(file: string, shape: WorldShape): { publishes: number; attempts: number; repairs: number } {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const end = dayKey(shape.days - 1);
  const ins = {
    pipeline: db.prepare(`INSERT INTO Pipeline (id, namespace, name, description, owner, createdAt) VALUES (?, ?, ?, '', ?, ?)`),
    task: db.prepare(
      `INSERT INTO Task (id, nodeId, namespace, name, pipelineId, writeMode, sideEffect, dependsOnOwnPast, publishMode, owner, description, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, 'replace', 'none', 0, 'per_unit', ?, '', ?, ?)`,
    ),
    dataset: db.prepare(
      `INSERT INTO Dataset (id, nodeId, namespace, name, pipelineId, kind, external, partitionDef, rowCountTolerance, description, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, 'table', 0, ?, 0.05, '', ?, ?)`,
    ),
    edge: db.prepare(`INSERT INTO LineageEdge (id, taskId, datasetId, direction, mapping, mappingParams, validFrom) VALUES (?, ?, ?, ?, 'identity', '{}', ?)`),
    run: db.prepare(
      `INSERT INTO Run (id, pipelineId, kind, status, rootRunId, parentRunId, repairNumber, incidentId, parameters, codeVersion, triggeredBy, startedAt, endedAt, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', 'v1', 'bench', ?, ?, ?)`,
    ),
    attempt: db.prepare(
      `INSERT INTO Attempt (id, runId, taskId, unitKey, tryNumber, status, rowsWritten, error, codeVersion, startedAt, endedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'v1', ?, ?)`,
    ),
    publish: db.prepare(
      `INSERT INTO Publish (id, datasetId, unitKey, runId, attemptId, publishedAt, inputVersion, codeVersion, rowCount) VALUES (?, ?, ?, ?, ?, ?, ?, 'v1', ?)`,
    ),
    incident: db.prepare(
      `INSERT INTO Incident (id, title, status, pipelineId, originRunId, failedPairs, openedBy, detectedAt, openedAt, resolvedAt) VALUES (?, ?, 'resolved', ?, ?, ?, 'bench', ?, ?, ?)`,
    ),
    plan: db.prepare(
      `INSERT INTO RepairPlan (id, incidentId, strategy, options, plan, status, createdBy, createdAt) VALUES (?, ?, 'repair_with_closure', '{}', ?, 'launched', 'bench', ?)`,
    ),
    audit: db.prepare(
      `INSERT INTO AuditEntry (kind, actor, actorRole, at, reason, incidentId, targets, before, after, prevHash, hash) VALUES (?, 'bench', 'commander', ?, 'bench', ?, '[]', 'null', 'null', ?, ?)`,
    ),
  };
  const now = iso(Date.now());
  const def = JSON.stringify({ kind: "time", grain: "day", start: BENCH_START, end, timezone: "UTC" });
  let publishes = 0;
  let attempts = 0;
  for (let c = 0; c < shape.chains; c++) {
    db.transaction(() => {
      const ns = `p${c}`;
      ins.pipeline.run(`pl-${c}`, ns, ns, `team-${c % 7}`, now);
      for (let s = 0; s < shape.depth; s++) {
        ins.dataset.run(`ds-${c}-${s}`, `dataset:${ns}:d${s}`, ns, `${ns}_d${s}`, `pl-${c}`, def, now, now);
        ins.task.run(`t-${c}-${s}`, `job:${ns}:build_d${s}`, ns, `build_d${s}`, `pl-${c}`, `team-${c % 7}`, now, now);
        ins.edge.run(`ew-${c}-${s}`, `t-${c}-${s}`, `ds-${c}-${s}`, "write", iso(T0 - DAY));
        if (s > 0) ins.edge.run(`er-${c}-${s}`, `t-${c}-${s}`, `ds-${c}-${s - 1}`, "read", iso(T0 - DAY));
      }
      for (let d = 0; d < shape.days; d++) {
        const runId = `r-${c}-${d}`;
        const start = T0 + (d + 1) * DAY;
        ins.run.run(runId, `pl-${c}`, "scheduled", "succeeded", null, null, 0, null, iso(start), iso(start + shape.depth * 60_000), iso(start));
        for (let s = 0; s < shape.depth; s++) {
          const at = start + s * 60_000;
          ins.attempt.run(`a-${c}-${s}-${d}`, runId, `t-${c}-${s}`, dayKey(d), 2, "succeeded", 1000, null, iso(at), iso(at + 50_000));
          ins.publish.run(`pb-${c}-${s}-${d}`, `ds-${c}-${s}`, dayKey(d), runId, `a-${c}-${s}-${d}`, iso(at + 50_000), `v${d}`, 1000);
          publishes += 1;
          attempts += 1;
        }
      }
    })();
  }
  const repairs = addRepairs(db, ins, shape);
  db.close();
  return { publishes, attempts: attempts + repairs * 3, repairs };
}

function addRepairs(db: Database.Database, ins: Record<string, Database.Statement>, shape: WorldShape): number {
  let seq = 0;
  db.transaction(() => {
    for (let i = 0; i < shape.incidents; i++) {
      const c = i % shape.chains;
      const d = Math.floor((i * 7919) % shape.days);
      const failedAt = T0 + (d + 1) * DAY + 3_600_000;
      const detectedAt = failedAt + (5 + (i % 55)) * 60_000;
      const repairStart = detectedAt + 20 * 60_000;
      const repairEnd = repairStart + (10 + (i % 50)) * 60_000;
      const resolvedAt = repairEnd + (15 + (i % 30)) * 60_000;
      const root = `r-${c}-${d}`;
      // the failed first try of the run the incident repairs (try numbers kept distinct per incident)
      ins.attempt!.run(
        `af-${i}`,
        root,
        `t-${c}-1`,
        dayKey(d),
        -i,
        "failed",
        0,
        i % 3 === 0 ? "connection reset by peer" : "503 SlowDown",
        iso(failedAt - 60_000),
        iso(failedAt),
      );
      ins.incident!.run(
        `inc-${i}`,
        `p${c} build_d1 ${dayKey(d)} failed`,
        `pl-${c}`,
        root,
        JSON.stringify([{ nodeId: `job:p${c}:build_d1`, units: [dayKey(d)] }]),
        iso(detectedAt),
        iso(detectedAt),
        iso(resolvedAt),
      );
      ins.plan!.run(
        `plan-${i}`,
        `inc-${i}`,
        JSON.stringify({ cost: { unitsRecomputed: shape.depth - 1, fullRerunUnits: (shape.depth - 1) * shape.days, tasks: shape.depth - 1 } }),
        iso(detectedAt),
      );
      ins.run!.run(`rep-${i}`, `pl-${c}`, "repair", "succeeded", root, root, 1, `inc-${i}`, iso(repairStart), iso(repairEnd), iso(repairStart));
      for (let s = 1; s <= 3; s++)
        ins.attempt!.run(`ar-${i}-${s}`, `rep-${i}`, `t-${c}-${s}`, dayKey(d), 1, "succeeded", 1000, null, iso(repairStart), iso(repairEnd));
      const kinds = ["validation.passed", "incident.resolved", ...(i % 17 === 0 ? ["unit.marked_success"] : []), ...(i % 29 === 0 ? ["unit.skipped"] : [])];
      for (const kind of kinds) {
        ins.audit!.run(kind, iso(kind === "validation.passed" ? repairEnd + 5 * 60_000 : resolvedAt), `inc-${i}`, `h${seq}`, `h${seq + 1}`);
        seq += 1;
      }
    }
  })();
  return shape.incidents;
}
