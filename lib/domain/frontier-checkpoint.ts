/**
 * One partition's durable progress (seed 002): a complete-through certificate moved only by a
 * compare-and-swap on its generation. A retry that finishes after a newer attempt loses the
 * comparison and changes nothing — it must reread the winner, never merge its stale token or
 * watermark into the newer checkpoint — and no valid swap ever lowers the watermark.
 *
 * Example: B is at generation 4, "≤ 100". A late retry proposes "≤ 140" expecting generation 3:
 * rejected as stale, B stays "≤ 100" at generation 4. A proposal expecting generation 4 for
 * "≤ 130" succeeds: "≤ 130" at generation 5.
 */

/** An upper bound: "every coordinate < c" (exclusive) or "every coordinate ≤ c" (inclusive). */
export interface Bound {
  coordinate: number;
  inclusive: boolean;
}

export interface Certificate {
  partition: string;
  /** Null when the source gives only a resume token: progress, but no completeness proof. */
  coordinate: number | null;
  /** Null when the endpoint semantics cannot be established. */
  inclusive: boolean | null;
  /** The ordering the coordinate lives in (e.g. "event_time_ms"); different domains never compare. */
  domain: string;
  generation: number;
  epoch: number;
  /** Opaque fetch handle. A token is not a watermark and never enters a comparison. */
  token?: string;
}

/**
 * Negative when `a` certifies less than `b`. At a tie the exclusive bound certifies less:
 * "< 100" leaves 100's equality group unproven, "≤ 100" includes it.
 */
export function compareBounds(a: Bound, b: Bound): number {
  if (a.coordinate !== b.coordinate) return a.coordinate < b.coordinate ? -1 : 1;
  if (a.inclusive === b.inclusive) return 0;
  return a.inclusive ? 1 : -1;
}

/** The weaker of two bounds. Never rewrites "< 100" as "≤ 99": on a dense order there is no such predecessor. */
export function weakerBound(a: Bound, b: Bound): Bound {
  return compareBounds(a, b) <= 0 ? a : b;
}

export interface CheckpointProposal {
  partition: string;
  /** The generation the writer read before doing its work. */
  expectedGeneration: number;
  coordinate: number;
  inclusive: boolean;
  domain: string;
  epoch: number;
  token?: string;
}

export type CheckpointOutcome = "advanced" | "unchanged" | "stale-generation" | "would-lower" | "epoch-mismatch" | "domain-mismatch";

export interface CheckpointUpdate {
  outcome: CheckpointOutcome;
  /** The durable checkpoint after the attempt: the proposal's on success, otherwise the current one. */
  checkpoint: Certificate | null;
  reason: string;
}

/**
 * Compare-and-swap on the partition's generation. `current` is null before the first checkpoint
 * (generation 0). Only "advanced" writes; every other outcome leaves `current` as it was.
 */
export function advanceCheckpoint(current: Certificate | null, proposed: CheckpointProposal): CheckpointUpdate {
  const generation = current?.generation ?? 0;
  const keep = (outcome: CheckpointOutcome, reason: string): CheckpointUpdate => ({ outcome, checkpoint: current, reason });
  if (proposed.expectedGeneration !== generation) {
    return keep("stale-generation", `expected generation ${proposed.expectedGeneration}, the checkpoint is at ${generation}: reread the winner`);
  }
  if (current !== null && current.epoch !== proposed.epoch) {
    return keep("epoch-mismatch", `proposal for epoch ${proposed.epoch}, checkpoint in epoch ${current.epoch}`);
  }
  if (current !== null && current.domain !== proposed.domain) {
    return keep("domain-mismatch", `proposal in ${proposed.domain}, checkpoint in ${current.domain}`);
  }
  const next: Bound = { coordinate: proposed.coordinate, inclusive: proposed.inclusive };
  if (current?.coordinate != null && current.inclusive !== null) {
    const order = compareBounds(next, { coordinate: current.coordinate, inclusive: current.inclusive });
    if (order < 0)
      return keep(
        "would-lower",
        `${formatBound(next)} is below the durable ${formatBound({ coordinate: current.coordinate, inclusive: current.inclusive })}: a watermark never goes back`,
      );
    if (order === 0 && proposed.token === current.token) return keep("unchanged", "same watermark and token");
  }
  const checkpoint: Certificate = {
    partition: proposed.partition,
    coordinate: next.coordinate,
    inclusive: next.inclusive,
    domain: proposed.domain,
    epoch: proposed.epoch,
    generation: generation + 1,
    token: proposed.token,
  };
  return { outcome: "advanced", checkpoint, reason: `now complete through ${formatBound(next)}` };
}

/** One fetched page of a partition, with the outcome of every event it covered. */
export interface FetchedPage {
  expectedGeneration: number;
  /** What the provider certifies as fully enumerated (and final) by this page; null if nothing. */
  certifiedThrough: Bound | null;
  events: readonly { coordinate: number; outcome: "done" | "failed" | "pending" }[];
  token?: string;
}

/**
 * The page barrier: a page's watermark is promoted only when the provider certified it and every
 * event it covered has a durable outcome. A failed or pending event holds the partition where it
 * was — its boundary is not moved to just before the failure, because the page was never done.
 */
export function promotePage(current: Certificate, page: FetchedPage): CheckpointUpdate {
  if (page.certifiedThrough === null) {
    return { outcome: "unchanged", checkpoint: current, reason: "the provider certified nothing for this page (a quiet page is not a proof)" };
  }
  const open = page.events.find((e) => e.outcome !== "done");
  if (open !== undefined) {
    return { outcome: "unchanged", checkpoint: current, reason: `event at ${open.coordinate} is ${open.outcome}: the partition's boundary is held` };
  }
  return advanceCheckpoint(current, {
    partition: current.partition,
    expectedGeneration: page.expectedGeneration,
    domain: current.domain,
    epoch: current.epoch,
    coordinate: page.certifiedThrough.coordinate,
    inclusive: page.certifiedThrough.inclusive,
    token: page.token,
  });
}

/** "≤ 100" or "< 100". */
export function formatBound(b: Bound): string {
  return `${b.inclusive ? "≤" : "<"} ${b.coordinate}`;
}
