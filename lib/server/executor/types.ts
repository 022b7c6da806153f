/**
 * The local executor's vocabulary: what task code receives and returns, how failures are
 * injected, and how time is supplied. Task code is pure (rows in, rows out); the executor owns
 * every write, so the write mode declared on the Task row is what decides duplicates.
 */
import type { WriteMode } from "@/lib/domain/unit-state";

export type { WriteMode };

/**
 * When something happens, as the executor reports it. A real clock ignores the event; the demo's
 * clock derives the time from it, so timestamps do not depend on which concurrent write
 * happened to finish first.
 */
export type ClockEvent =
  | { phase: "run-start" }
  | { phase: "run-end"; waves: number }
  | { phase: "attempt-start" | "attempt-end"; wave: number; tryNumber: number; taskNodeId: string; unitKey: string };

export type Clock = (event: ClockEvent) => Date;

/** A deliberate failure for one try of one (task, unit): the demo's and the tests' fault model. */
export interface FailureInjection {
  /** The write fails after this many rows (0 = before any row, like failBeforeWrite). */
  failAfterRows?: number;
  /** The try fails before writing anything. */
  failBeforeWrite?: boolean;
  /** The error the attempt records. */
  error?: string;
}

export interface WarehouseInputRow {
  unitKey: string;
  rowKey: string;
  payload: Record<string, unknown>;
}

/** Everything one read edge delivered for the unit being built. */
export interface TaskInput {
  datasetNodeId: string;
  mapping: string;
  unitKeys: string[];
  rows: WarehouseInputRow[];
}

export interface TaskContext {
  taskNodeId: string;
  unitKey: string;
  /** By dataset node id. */
  inputs: Readonly<Record<string, TaskInput>>;
  parameters: Readonly<Record<string, unknown>>;
}

export interface OutputRow {
  rowKey: string;
  payload: Record<string, unknown>;
}

export interface TaskOutput {
  rows: OutputRow[];
  /** What the source of truth says the unit holds (a landing task reads the source manifest). */
  sourceCount?: number;
  /** For side-effecting tasks: what is sent outside the platform once the unit is published. */
  delivery?: { destination: string; payload: unknown };
}

export interface TaskCode {
  codeVersion: string;
  /** Whether the write is one transaction: a failure then leaves nothing behind. */
  atomicWrite: boolean;
  /** Datasets (node ids) that must reconcile to this task's sourceCount, besides its own output. */
  reconciles?: readonly string[];
  run(ctx: TaskContext): TaskOutput;
}

/** Automatic retries: a try that fails is retried immediately until maxTries is reached. */
export interface RetryPolicy {
  maxTries: number;
}

/** How a run treats inputs that no pair of the same run produces. */
export type ExternalInputPolicy =
  /** Triggered on publish (a sensor, a dataset trigger): an unpublished input blocks the pair. */
  | "require_published"
  /** Triggered on a schedule: reads whatever the table holds (seed 003's silent half-write). */
  | "read_available";
