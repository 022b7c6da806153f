import { RunEventSchema, type FieldIssue, type RunEvent } from "@/lib/contracts/openlineage";
import { HttpError } from "../http/errors";

export interface ParsedEvent {
  index: number;
  event: RunEvent;
  /** The event re-serialised: what is stored and hashed, so whitespace never defeats idempotency. */
  json: string;
}

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

/**
 * Splits a POST /api/v1/lineage body into events: one JSON object, a JSON array, or NDJSON (one
 * event per line, as the OpenLineage file transport and `jq -c` write). A body that is none of
 * these is a 400 for the whole request; a bad line or array element refuses only that event.
 * Field paths are `body.run.runId` for one event and `body[3].run.runId` in a batch.
 */
export function parseLineageBody(text: string): ParsedLineageBody {
  const trimmed = text.trim();
  if (trimmed === "") throw new HttpError(400, "invalid_request", "body: an OpenLineage event, a JSON array of events, or NDJSON is required");
  const whole = tryParse(trimmed);
  if (whole.ok) {
    if (Array.isArray(whole.value) && whole.value.length === 0) throw new HttpError(400, "invalid_request", "body: the batch is empty");
    if (Array.isArray(whole.value)) return validateAll(whole.value.map((v) => ({ value: v, text: JSON.stringify(v) })), true);
    return validateAll([{ value: whole.value, text: trimmed }], false);
  }
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length < 2) throw new HttpError(400, "invalid_request", `body: malformed JSON (${whole.error})`);
  return validateAll(lines.map((line) => {
    const parsed = tryParse(line);
    return parsed.ok ? { value: parsed.value, text: line } : { error: parsed.error, text: line };
  }), true);
}

type Item = { value: unknown; text: string } | { error: string; text: string };

function validateAll(items: Item[], batch: boolean): ParsedLineageBody {
  const events: ParsedEvent[] = [];
  const refused: RefusedEvent[] = [];
  items.forEach((item, index) => {
    const prefix = batch ? `body[${index}]` : "body";
    const excerpt = item.text.slice(0, EXCERPT_CHARS);
    if ("error" in item) {
      refused.push({ index, excerpt, issues: [{ path: prefix, message: `malformed JSON (${item.error})` }] });
      return;
    }
    const result = RunEventSchema.safeParse(item.value);
    if (!result.success) {
      const issues = result.error.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].join("."), message: i.message }));
      refused.push({ index, excerpt, issues });
      return;
    }
    events.push({ index, event: result.data, json: JSON.stringify(item.value) });
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
