import type { Submitter } from "../auth/roles";

/** What an ingestion use case is given: the body's text as the producer sent it, and who sent it. */
export interface IngestionInput {
  text: string;
  submitter?: Submitter;
}

/**
 * What became of a request whose items are judged one by one (OpenLineage events, ledger
 * entries): every item in (one already stored counts as in: ingestion is idempotent), some in and
 * some refused, or none in. None in says why: items refused while the request was read
 * (malformed, an implausible time, a namespace outside the token's), or only well-formed items
 * the rules refused when applied (a unit key its dataset's partitions refuse). Each refused item
 * is in `result`, its issues naming its field. Which status each answers is the HTTP layer's
 * table (lib/server/http/ingestion-answers.ts), never the use case's.
 */
export type IngestionOutcome<R> =
  { kind: "accepted"; result: R } | { kind: "partly_accepted"; result: R } | { kind: "none_accepted"; why: "malformed" | "refused"; result: R };

/** The outcome of `accepted` and `refused` items; `refusedOnRead`: whether any item was refused while the request was read. */
export function outcomeOf<R>(result: R, accepted: number, refused: number, refusedOnRead: boolean): IngestionOutcome<R> {
  if (accepted === 0) return { kind: "none_accepted", why: refusedOnRead ? "malformed" : "refused", result };
  return refused > 0 ? { kind: "partly_accepted", result } : { kind: "accepted", result };
}
