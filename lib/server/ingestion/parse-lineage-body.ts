import type { ZodType } from "zod";
import { fieldIssues } from "@/lib/contracts/field-issues";
import {
  DatasetEventSchema,
  JobEventSchema,
  RunEventSchema,
  type DatasetEvent,
  type FieldIssue,
  type JobEvent,
  type RunEvent,
} from "@/lib/contracts/openlineage";
import { MalformedInputError } from "@/lib/domain/errors";
import { checkJsonLimits, MAX_JSON_DEPTH } from "@/lib/domain/json-limits";
import { illFormedTextAt } from "@/lib/domain/well-formed-text";
import { implausibleInstant } from "./plausible-instant";
import { checkAgainstSpec, type OpenLineageEventKind } from "./openlineage-schema";

interface Parsed<K extends OpenLineageEventKind, E> {
  index: number;
  kind: K;
  event: E;
  /** The event re-serialised: what is stored and hashed, so whitespace never defeats idempotency. */
  json: string;
  /** The event as sent (what `json` serialises): what a run is folded from, as from a stored body. */
  raw: unknown;
}
export type ParsedRunEvent = Parsed<"RunEvent", RunEvent>;
export type ParsedEvent = ParsedRunEvent | Parsed<"DatasetEvent", DatasetEvent> | Parsed<"JobEvent", JobEvent>;

const READ_SCHEMAS: Record<OpenLineageEventKind, ZodType> = { RunEvent: RunEventSchema, DatasetEvent: DatasetEventSchema, JobEvent: JobEventSchema };

export interface RefusedEvent {
  index: number;
  issues: FieldIssue[];
  /** Start of the refused text, kept for the rejected-events log. */
  excerpt: string;
}

export interface ParsedLineageBody {
  batch: boolean;
  events: ParsedEvent[];
  refused: RefusedEvent[];
}

const EXCERPT_CHARS = 2_000;
/** Events per request, as many as a ledger batch (read-ingestion-batch.ts). */
export const MAX_EVENTS = 10_000;

/**
 * Splits a POST /api/v1/lineage body into events: one JSON object, a JSON array, or NDJSON (one
 * event per line, as the OpenLineage file transport and `jq -c` write). A body that is none of
 * these is refused whole (MalformedInputError); a bad line or array element refuses only that event.
 * Field paths are `body.run.runId` for one event and `body[3].run.runId` in a batch.
 */
export function parseLineageBody(text: string, now: Date): ParsedLineageBody {
  const trimmed = text.trim();
  if (trimmed === "") throw new MalformedInputError("body", "an OpenLineage event, a JSON array of events, or NDJSON is required");
  checkJsonLimits(trimmed, "body", MAX_JSON_DEPTH, MAX_EVENTS);
  const whole = tryParse(trimmed);
  if (whole.ok) {
    if (Array.isArray(whole.value) && whole.value.length === 0) throw new MalformedInputError("body", "the batch is empty");
    if (Array.isArray(whole.value))
      return validateAll(
        whole.value.map((v) => ({ value: v })),
        true,
        now,
      );
    return validateAll([{ value: whole.value, text: trimmed }], false, now);
  }
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length > MAX_EVENTS) throw new MalformedInputError("body", `at most ${MAX_EVENTS} events per request (${lines.length} lines)`);
  if (lines.length < 2) throw new MalformedInputError("body", `malformed JSON (${whole.error})`);
  return validateAll(
    lines.map((line) => {
      const parsed = tryParse(line);
      return parsed.ok ? { value: parsed.value, text: line } : { error: parsed.error, text: line };
    }),
    true,
    now,
  );
}

/**
 * The OpenLineage batch endpoint's body: a JSON array of events, nothing else (the proposal's
 * `postEventBatch`). Each element is checked on its own, as in a batch to /api/v1/lineage.
 */
export function parseEventBatch(text: string, now: Date): ParsedLineageBody {
  checkJsonLimits(text, "body", MAX_JSON_DEPTH, MAX_EVENTS);
  const whole = tryParse(text.trim());
  if (!whole.ok) throw new MalformedInputError("body", `malformed JSON (${whole.error})`);
  if (!Array.isArray(whole.value)) throw new MalformedInputError("body", "the batch endpoint takes a JSON array of OpenLineage events");
  if (whole.value.length === 0) throw new MalformedInputError("body", "the batch is empty");
  return validateAll(
    whole.value.map((v) => ({ value: v })),
    true,
    now,
  );
}

/**
 * One event's verdict: the official schema first (its reason when it refuses), then what
 * Reparo reads of it, then an event time close enough to now to be true (a year-9999 event would
 * otherwise be the newest of everything forever).
 */
export function checkEvent(
  value: unknown,
  prefix: string,
  now: Date,
  json = JSON.stringify(value),
): { ok: true; kind: OpenLineageEventKind; event: unknown } | { ok: false; issues: FieldIssue[] } {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { ok: false, issues: [{ path: prefix, message: "must be an OpenLineage event (a JSON object)" }] };
  const text = MAYBE_ILL_FORMED.test(json) ? illFormedTextAt(value, prefix) : null;
  if (text) return { ok: false, issues: [text] };
  const spec = checkAgainstSpec(value, prefix);
  if (spec.issues.length > 0 || spec.kind === null) return { ok: false, issues: spec.issues };
  const result = READ_SCHEMAS[spec.kind].safeParse(value);
  if (!result.success) return { ok: false, issues: fieldIssues(result.error, prefix) };
  const time = implausibleInstant((result.data as { eventTime: string }).eventTime, now);
  if (time) return { ok: false, issues: [{ path: `${prefix}.eventTime`, message: time }] };
  return { ok: true, kind: spec.kind, event: result.data };
}

/**
 * JSON.stringify writes a NUL as \u0000 and a lone surrogate as its escape (\ud800…\udfff), and
 * a well-formed pair as the character itself: serialised text without either escape holds no
 * ill-formed string, so the walk that names the field runs only when one may be there.
 */
const MAYBE_ILL_FORMED = /\\u(?:0000|d[89a-f])/i;

/** An event as sent: its text where the body had it apart (a line, the whole body), else re-serialised when needed. */
type Item = { value: unknown; text?: string } | { error: string; text: string };

function validateAll(items: Item[], batch: boolean, now: Date): ParsedLineageBody {
  const events: ParsedEvent[] = [];
  const refused: RefusedEvent[] = [];
  items.forEach((item, index) => {
    const prefix = batch ? `body[${index}]` : "body";
    if ("error" in item) {
      refused.push({ index, excerpt: item.text.slice(0, EXCERPT_CHARS), issues: [{ path: prefix, message: `malformed JSON (${item.error})` }] });
      return;
    }
    // Serialised once: what is stored and hashed, and a refused event's excerpt.
    const json = JSON.stringify(item.value);
    const checked = checkEvent(item.value, prefix, now, json);
    if (!checked.ok) {
      refused.push({ index, excerpt: (item.text ?? json).slice(0, EXCERPT_CHARS), issues: checked.issues });
      return;
    }
    events.push({ index, kind: checked.kind, event: checked.event, json, raw: item.value } as ParsedEvent);
  });
  return { batch, events, refused };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * A token limited to some namespaces may send only events whose job and datasets are all in
 * them: the others are refused, naming the first field outside. `allowed` empty = every namespace.
 */
export function keepNamespaces(parsed: ParsedLineageBody, allowed: readonly string[]): ParsedLineageBody {
  if (allowed.length === 0) return parsed;
  const events: ParsedEvent[] = [];
  const refused = [...parsed.refused];
  for (const e of parsed.events) {
    const prefix = parsed.batch ? `body[${e.index}]` : "body";
    const outside = namespacesOf(e).find(([, ns]) => !allowed.includes(ns));
    if (outside)
      refused.push({
        index: e.index,
        excerpt: e.json.slice(0, EXCERPT_CHARS),
        issues: [{ path: `${prefix}.${outside[0]}`, message: `namespace ${outside[1]} is outside this token's namespaces (${allowed.join(", ")})` }],
      });
    else events.push(e);
  }
  refused.sort((a, b) => a.index - b.index);
  return { ...parsed, events, refused };
}

/** Every namespace an event names — its parent and root jobs' too: they become the run's pipeline. */
function namespacesOf(e: ParsedEvent): [string, string][] {
  const out: [string, string][] = [];
  type JobRef = { job?: { namespace?: unknown } };
  const ev = e.event as {
    job?: { namespace: string };
    dataset?: { namespace: string };
    inputs?: { namespace: string }[];
    outputs?: { namespace: string }[];
    run?: { facets?: { parent?: JobRef & { root?: JobRef } } };
  };
  if (ev.job) out.push(["job.namespace", ev.job.namespace]);
  const parent = ev.run?.facets?.parent;
  if (typeof parent?.job?.namespace === "string") out.push(["run.facets.parent.job.namespace", parent.job.namespace]);
  if (typeof parent?.root?.job?.namespace === "string") out.push(["run.facets.parent.root.job.namespace", parent.root.job.namespace]);
  if (ev.dataset) out.push(["dataset.namespace", ev.dataset.namespace]);
  (ev.inputs ?? []).forEach((d, i) => out.push([`inputs[${i}].namespace`, d.namespace]));
  (ev.outputs ?? []).forEach((d, i) => out.push([`outputs[${i}].namespace`, d.namespace]));
  return out;
}
