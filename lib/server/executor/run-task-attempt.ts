import {
  failAttempt,
  recordDeliveryOnce,
  recordExecutorPublish,
  recordSourceCounts as saveSourceCounts,
  startAttempt,
  succeedRunningAttempt,
} from "../repositories/ledger/executor-runs";
import { inTransaction, type Db, type Tx } from "../repositories/database";
import type { ExecutorDataset, ExecutorTask } from "./executor-lineage";
import { readPairInputs } from "./read-pair-inputs";
import type { ResolvedRead } from "./resolve-pair-inputs";
import type { Clock, FailureInjection, TaskCode, TaskOutput } from "./types";
import { writeUnit } from "./write-unit";

export interface TaskAttemptSpec {
  runId: string;
  task: ExecutorTask;
  code: TaskCode;
  unitKey: string;
  tryNumber: number;
  /** Position of the pair in the run's dependency order (for the clock). */
  wave: number;
  reads: readonly ResolvedRead[];
  failure?: FailureInjection;
  atomic: boolean;
  parameters: Readonly<Record<string, unknown>>;
  clock: Clock;
  /** The lineage's datasets by node id, to resolve the datasets the code reconciles. */
  datasets: ReadonlyMap<string, ExecutorDataset>;
  /** For side-effecting tasks; defaults to task/unit/input version, so a replay of the same inputs sends nothing. */
  idempotencyKey?: string;
}

export interface TaskAttemptResult {
  attemptId: string;
  status: "succeeded" | "failed";
  rowsWritten: number;
  unitRowCount: number | null;
  error: string | null;
}

/**
 * One try of one (task, unit): records the Attempt, reads the inputs through the lineage's
 * partition mappings, runs the task's code, writes its rows with the declared write mode and,
 * in the transaction that completes the write, records the publish (and the external delivery
 * of a side-effecting task). A failure is recorded, never thrown: the run decides on retries.
 */
export async function runTaskAttempt(db: Db, spec: TaskAttemptSpec): Promise<TaskAttemptResult> {
  const { task, unitKey, tryNumber, wave } = spec;
  const startedAt = spec.clock({ phase: "attempt-start", wave, tryNumber, taskNodeId: task.nodeId, unitKey });
  const attempt = await inTransaction(db, (tx) =>
    startAttempt(tx, { runId: spec.runId, taskId: task.id, unitKey, tryNumber, codeVersion: spec.code.codeVersion, startedAt }),
  );
  const endedAt = () => spec.clock({ phase: "attempt-end", wave, tryNumber, taskNodeId: task.nodeId, unitKey });
  const fail = async (error: string, rowsWritten: number): Promise<TaskAttemptResult> => {
    await inTransaction(db, (tx) => failAttempt(tx, { id: attempt.id, taskId: task.id, unitKey, error, rowsWritten, endedAt: endedAt() }));
    return { attemptId: attempt.id, status: "failed", rowsWritten, unitRowCount: null, error };
  };
  if (!task.writeMode) return fail(`${task.nodeId} declares no write mode: the executor will not guess one`, 0);
  const { inputs, inputVersion } = await readPairInputs(db, spec.reads);
  let output: TaskOutput;
  try {
    output = spec.code.run({ taskNodeId: task.nodeId, unitKey, inputs, parameters: spec.parameters });
  } catch (e) {
    return fail(`task code raised: ${(e as Error).message}`, 0);
  }
  if (output.sourceCount !== undefined) await recordSourceCounts(db, spec, output.sourceCount, startedAt);
  const finishedAt = endedAt();
  const result = await writeUnit(db, {
    datasetId: task.output.id,
    unitKey,
    mode: task.writeMode,
    rows: output.rows,
    atomic: spec.atomic,
    failure: spec.failure,
    attemptId: attempt.id,
    writtenAt: startedAt,
    onCommit: (tx, unitRowCount) => recordPublish(tx, spec, { attemptId: attempt.id, output, inputVersion, unitRowCount, at: finishedAt }),
  });
  if (result.error !== null) return fail(result.error, result.rowsWritten);
  return { attemptId: attempt.id, status: "succeeded", rowsWritten: result.rowsWritten, unitRowCount: result.unitRowCount, error: null };
}

interface Published {
  attemptId: string;
  output: TaskOutput;
  inputVersion: string;
  unitRowCount: number;
  at: Date;
}

/** The attempt's success, the ledger row and the delivery commit with the write itself. */
async function recordPublish(tx: Tx, spec: TaskAttemptSpec, p: Published): Promise<void> {
  const { task, unitKey } = spec;
  // Only a running attempt may succeed: if its process was presumed dead and another instance
  // took the run over (failing this attempt), this late write rolls back instead of publishing twice.
  if (!(await succeedRunningAttempt(tx, p.attemptId, p.output.rows.length, p.at)))
    throw new Error(`attempt ${p.attemptId} is no longer running (the repair was taken over): its write is rolled back`);
  await recordExecutorPublish(tx, {
    datasetId: task.output.id,
    taskId: task.id,
    unitKey,
    runId: spec.runId,
    attemptId: p.attemptId,
    publishedAt: p.at,
    inputVersion: p.inputVersion,
    codeVersion: spec.code.codeVersion,
    rowCount: p.unitRowCount,
  });
  if (p.output.delivery && task.sideEffect === "external") await deliver(tx, spec, p.output.delivery, p.inputVersion, p.at);
}

/** The source's own count for the unit, for the output and every dataset that must reconcile to it. */
async function recordSourceCounts(db: Db, spec: TaskAttemptSpec, rowCount: number, measuredAt: Date): Promise<void> {
  const datasetIds = [spec.task.output.id, ...(spec.code.reconciles ?? []).map((nodeId) => datasetIdOf(spec, nodeId))];
  await inTransaction(db, (tx) => saveSourceCounts(tx, datasetIds, { unitKey: spec.unitKey, rowCount, measuredAt, source: spec.task.nodeId }));
}

function datasetIdOf(spec: TaskAttemptSpec, nodeId: string): string {
  const id = spec.datasets.get(nodeId)?.id;
  if (!id) throw new Error(`${spec.task.nodeId} reconciles ${nodeId}, which is not in the lineage`);
  return id;
}

/** Sends at most once per idempotency key: a replay with the same key records nothing new. */
async function deliver(tx: Tx, spec: TaskAttemptSpec, delivery: NonNullable<TaskOutput["delivery"]>, inputVersion: string, sentAt: Date): Promise<void> {
  const idempotencyKey = spec.idempotencyKey ?? `${spec.task.nodeId}/${spec.unitKey}/${inputVersion}`;
  await recordDeliveryOnce(tx, {
    taskId: spec.task.id,
    unitKey: spec.unitKey,
    runId: spec.runId,
    idempotencyKey,
    destination: delivery.destination,
    payload: delivery.payload,
    sentAt,
  });
}
