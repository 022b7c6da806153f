import type { Submitter } from "../auth/roles";
import type { Db } from "../repositories/database";
import { DomainError, type Problem } from "@/lib/domain/errors";
import { DatabaseConfigError } from "../db/database-url";
import { metrics } from "../observability/metrics";
import type { IngestionInput } from "./ingestion-outcome";
import { receiveLineage } from "./receive-lineage";
import { receiveLineageBatch } from "./receive-lineage-batch";
import { receivePublishes } from "./receive-publishes";
import { receiveSourceCounts, receiveWarehouseCounts } from "./receive-counts";

/**
 * The ingestion use cases the ingestion thread can run (ingestion-thread.ts), by name: the ledger
 * batches and OpenLineage events folded inline, whose whole work — parsing, validating, one write
 * transaction — is on the database and needs nothing of the process it runs in. (Events whose
 * fold is deferred are not sent: their request kicks this process's fold thread.)
 */
export const INGESTION_HANDLERS = {
  lineage: receiveLineage,
  "lineage-batch": receiveLineageBatch,
  publishes: receivePublishes,
  "source-counts": receiveSourceCounts,
  "warehouse-counts": receiveWarehouseCounts,
} satisfies Record<string, (db: Db, input: IngestionInput, now: Date) => Promise<unknown>>;

export type IngestionKind = keyof typeof INGESTION_HANDLERS;
/** What the use case of `kind` answers: its outcome, typed by its result. */
export type IngestionOutcomeOf<K extends IngestionKind> = Awaited<ReturnType<(typeof INGESTION_HANDLERS)[K]>>;

/** A request for the thread: the body as read by the route (within its limit), when, and who sent it. */
export interface IngestionCommand {
  id: number;
  kind: IngestionKind;
  text: string;
  now: number;
  submitter?: Submitter;
}

/** A domain error as data: the main thread throws it again, and route() answers it as any other. */
export interface RefusalData {
  problem: Problem;
  message: string;
  code?: string;
  details?: unknown;
}

/**
 * What else a use case threw, as data: its message, the driver's code (a busy database, a lost
 * race), and whether it was the operator's database configuration (answered 503, not 500).
 */
export interface ThrownData {
  message: string;
  code: string | null;
  stack?: string;
  databaseConfig?: true;
}

/**
 * The thread's answer, as plain data: the use case's outcome, its domain refusal, or what else it
 * threw; `ingested` is what its counters gained since its last answer.
 */
export type IngestionAnswer = { id: number; ingested: CounterGain[] } & (
  { outcome: IngestionOutcomeOf<IngestionKind> } | { refused: RefusalData } | { thrown: ThrownData }
);

export interface CounterGain {
  labels: Record<string, string>;
  value: number;
}

/**
 * The thread's side: run one command on the thread's database and answer it as plain data. A
 * busy database or a lost race is handed back as the error it was (the route retries the one and
 * answers the other 409), as is anything unforeseen (the route logs it and answers 500).
 * `shipped` is the counter values already reported.
 */
export async function answerIngestion(command: IngestionCommand, db: Db, shipped: Map<string, number>): Promise<IngestionAnswer> {
  let answer: { outcome: IngestionOutcomeOf<IngestionKind> } | { refused: RefusalData } | { thrown: ThrownData };
  try {
    answer = { outcome: await INGESTION_HANDLERS[command.kind](db, { text: command.text, submitter: command.submitter }, new Date(command.now)) };
  } catch (e) {
    answer = e instanceof DomainError ? { refused: refusalData(e) } : { thrown: thrownData(e) };
  }
  return { id: command.id, ingested: await gains(shipped), ...answer };
}

/** The main thread's side: the outcome the use case answered, or the error it threw, thrown again. */
export function outcomeOfAnswer<K extends IngestionKind>(answer: IngestionAnswer): IngestionOutcomeOf<K> {
  if ("outcome" in answer) return answer.outcome as IngestionOutcomeOf<K>;
  if ("refused" in answer) throw new RefusedOnThread(answer.refused);
  if (answer.thrown.databaseConfig) throw new DatabaseConfigError(answer.thrown.message);
  throw Object.assign(
    new Error(answer.thrown.message),
    answer.thrown.code ? { code: answer.thrown.code } : {},
    answer.thrown.stack ? { stack: answer.thrown.stack } : {},
  );
}

function thrownData(e: unknown): ThrownData {
  const error = e as Error;
  return { message: error.message, code: codeOf(e), stack: error.stack, ...(e instanceof DatabaseConfigError ? { databaseConfig: true as const } : {}) };
}

function refusalData(e: DomainError): RefusalData {
  return { problem: e.problem, message: e.message, ...(e.code ? { code: e.code } : {}), ...(e.details !== undefined ? { details: e.details } : {}) };
}

/** A domain error the ingestion thread threw, as the route reads one: its problem, code, message and details. */
class RefusedOnThread extends DomainError {
  readonly problem: Problem;
  constructor(data: RefusalData) {
    super(data.message, data.details);
    this.problem = data.problem;
    if (data.code) this.code = data.code;
  }
}

/** What the ingestion counter gained in this thread since the last answer: the console's registry adds it (GET /api/metrics). */
async function gains(shipped: Map<string, number>): Promise<CounterGain[]> {
  const out: CounterGain[] = [];
  for (const { labels, value } of (await metrics().ingested.get()).values) {
    const key = JSON.stringify(labels);
    const gained = value - (shipped.get(key) ?? 0);
    if (gained === 0) continue;
    shipped.set(key, value);
    out.push({ labels: labels as Record<string, string>, value: gained });
  }
  return out;
}

function codeOf(e: unknown): string | null {
  for (let err = e as { code?: unknown; cause?: unknown } | undefined, depth = 0; err && depth < 6; err = err.cause as typeof err, depth++) {
    if (typeof err.code === "string") return err.code;
  }
  return null;
}
