import { fieldIssues, issueText } from "@/lib/contracts/field-issues";
import type { ZodType } from "zod";
import type { FieldIssue } from "@/lib/contracts/openlineage";
import { DomainError, MalformedInputError } from "@/lib/domain/errors";
import { parseJsonInput } from "@/lib/domain/json-limits";
import { illFormedTextAt } from "@/lib/domain/well-formed-text";
import type { Db } from "../repositories/database";
import { recordRejections, type RejectionRow } from "../repositories/ingestion/ingested-events";
import { implausibleInstant } from "./plausible-instant";
import { parseNodeId } from "@/lib/domain/ids";

export const LEDGER_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const LEDGER_MAX_ITEMS = 10_000;

export interface BatchItem<T> {
  index: number;
  value: T;
  raw: unknown;
}
export interface RefusedItem {
  index: number;
  issues: FieldIssue[];
  raw: unknown;
}

export interface IngestionBatch<T> {
  items: BatchItem<T>[];
  refused: RefusedItem[];
  /** Prefix of every field path: `body` for one object, `body[3]` for an array element. */
  pathOf(index: number): string;
}

/**
 * Reads a ledger-style body — one JSON object, or a JSON array of them — and validates each
 * item on its own, so a bad item refuses only itself (its issues name `body[3].unitKey`) and a
 * good one in the same batch is still applied. A body that is not JSON, is empty, or holds too many items
 * refuses the whole request; every refusal goes to the rejection log the ingestion page shows.
 */
export async function readIngestionBatch<T>(
  text: string,
  db: Db,
  endpoint: string,
  schema: ZodType<T>,
  now: Date,
  /** The item's producer instants (field name → ISO text), refused when implausible (plausible-instant.ts). */
  instantsOf: (item: T) => Record<string, string> = () => ({}),
  /** A namespace-limited token's namespaces (empty = all), and the item's namespaced fields. */
  limit: { namespaces: readonly string[]; of: (item: T) => [string, string | null][] } = { namespaces: [], of: () => [] },
): Promise<IngestionBatch<T>> {
  const body = await refusedWholeLogged(db, endpoint, now, () => {
    const value = parseJsonInput(text);
    if (Array.isArray(value) && value.length === 0) throw new MalformedInputError("body", "the batch is empty");
    if (Array.isArray(value) && value.length > LEDGER_MAX_ITEMS) throw new MalformedInputError("body", `at most ${LEDGER_MAX_ITEMS} items per request`);
    return value;
  });
  const batch = Array.isArray(body);
  const pathOf = (index: number) => (batch ? `body[${index}]` : "body");
  const raws: unknown[] = batch ? (body as unknown[]) : [body];
  const items: BatchItem<T>[] = [];
  const refused: RefusedItem[] = [];
  raws.forEach((raw, index) => {
    const text = illFormedTextAt(raw, pathOf(index));
    if (text) {
      refused.push({ index, raw, issues: [text] });
      return;
    }
    const parsed = schema.safeParse(raw);
    const timeIssues = parsed.success
      ? Object.entries(instantsOf(parsed.data)).flatMap(([field, iso]) => {
          const why = implausibleInstant(iso, now);
          return why ? [{ path: `${pathOf(index)}.${field}`, message: why }] : [];
        })
      : [];
    const outside =
      parsed.success && limit.namespaces.length > 0 ? limit.of(parsed.data).find(([, ns]) => ns === null || !limit.namespaces.includes(ns)) : undefined;
    if (outside)
      refused.push({
        index,
        raw,
        issues: [
          {
            path: `${pathOf(index)}.${outside[0]}`,
            message: `namespace ${outside[1] ?? "(unreadable)"} is outside this token's namespaces (${limit.namespaces.join(", ")})`,
          },
        ],
      });
    else if (timeIssues.length > 0) refused.push({ index, raw, issues: timeIssues });
    else if (parsed.success) items.push({ index, value: parsed.data, raw });
    else refused.push({ index, raw, issues: fieldIssues(parsed.error, pathOf(index)) });
  });
  return { items, refused, pathOf };
}

/** The namespace of a {nodeId} or {namespace, name} reference (null when the id does not parse). */
export function refNamespace(ref: { nodeId: string } | { namespace: string; name: string }): string | null {
  return "nodeId" in ref ? (parseNodeId(ref.nodeId)?.namespace ?? null) : ref.namespace;
}

/** Writes refused items (schema faults and semantic refusals alike) to the rejection log. */
export async function logRefusals(db: Db, endpoint: string, refused: RefusedItem[], now: Date): Promise<void> {
  const rows: RejectionRow[] = refused.map((r) => ({
    endpoint,
    fieldPath: r.issues[0]?.path ?? "body",
    reason: r.issues.map(issueText).join("; "),
    body: JSON.stringify(r.raw) ?? "",
  }));
  await recordRejections(db, rows, now);
}

/** The request's schema refusals and the use case's refusals, in request order, each with its raw item for the log. */
export function allRefusals<T>(batch: IngestionBatch<T>, later: { index: number; issues: FieldIssue[] }[]): RefusedItem[] {
  const raw = new Map([...batch.items, ...batch.refused].map((i) => [i.index, i.raw]));
  return [...batch.refused, ...later.map((r) => ({ ...r, raw: raw.get(r.index) }))].sort((a, b) => a.index - b.index);
}

/**
 * What `read` makes of a body, or — when it refuses the body as a whole (a domain error: not
 * JSON, empty, too many items) — that refusal's line in the rejection log, and the refusal thrown.
 */
export async function refusedWholeLogged<T>(db: Db, endpoint: string, now: Date, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof DomainError) await logRefusedBody(db, endpoint, e, now);
    throw e;
  }
}

/** A body refused whole (or never read: too large, cut on its way) in the rejection log, at the first field it names. */
export async function logRefusedBody(db: Db, endpoint: string, refusal: { message: string; details?: unknown }, now: Date): Promise<void> {
  const issues = (refusal.details as { issues?: { path: string }[] } | undefined)?.issues;
  await recordRejections(db, [{ endpoint, fieldPath: issues?.[0]?.path ?? "body", reason: refusal.message, body: "" }], now);
}
