import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { FieldIssue } from "@/lib/contracts/openlineage";
import officialSpec from "./openlineage-spec/OpenLineage.json";
import { compositeKey } from "@/lib/domain/composite-key";

/**
 * OpenLineage's own JSON Schema (spec 2-0-2, unchanged in ./openlineage-spec) decides whether a
 * RunEvent, DatasetEvent or JobEvent is well-formed, so Reparo refuses what the spec refuses, with
 * the spec's reason. Four leniencies, because real producers need them (each seen in the
 * fixtures of dbt-ol, Marquez and Spark), applied to a copy of the schema and nothing else:
 *   1. `producer` and `schemaURL` may be absent from the event (dbt-ol, Marquez's seed), or
 *      any text rather than a URI (a hand-written producer names itself "my-loader");
 *   2. `_producer` and `_schemaURL` may be absent from a facet (the same producers), or any text;
 *   3. a run id need not be a UUID (dbt-ol's fixtures, Airflow's cleared tasks are re-keyed);
 *   4. a facet's `_deleted` may be null (the Python client serialises None).
 */
export type OpenLineageEventKind = "RunEvent" | "DatasetEvent" | "JobEvent";

type Json = Record<string, unknown>;

function lenientCopy(spec: Json): Json {
  const copy = structuredClone(spec) as { $defs: Record<string, Json> };
  const defs = copy.$defs;
  const dropRequired = (def: Json, names: string[]) => {
    def.required = (def.required as string[]).filter((n) => !names.includes(n));
  };
  dropRequired(defs.BaseEvent!, ["producer", "schemaURL"]);
  dropRequired(defs.BaseFacet!, ["_producer", "_schemaURL"]);
  for (const [def, names] of [
    [defs.BaseEvent!, ["producer", "schemaURL"]],
    [defs.BaseFacet!, ["_producer", "_schemaURL"]],
  ] as const) {
    for (const name of names) delete ((def.properties as Json)[name] as Json).format;
  }
  delete ((defs.Run!.properties as Json).runId as Json).format;
  for (const name of ["DatasetFacet", "JobFacet"]) {
    for (const part of defs[name]!.allOf as Json[]) {
      const deleted = (part.properties as Json | undefined)?._deleted as Json | undefined;
      if (deleted) deleted.type = ["boolean", "null"];
    }
  }
  return copy;
}

type Validators = Record<OpenLineageEventKind | "any", ValidateFunction>;
let compiled: Validators | null = null;

function validators(): Validators {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const spec = lenientCopy(officialSpec as Json);
  ajv.addSchema(spec);
  const ref = (kind: OpenLineageEventKind) => ajv.compile({ $ref: `${String(spec.$id)}#/$defs/${kind}` });
  compiled = { any: ajv.compile({ $ref: String(spec.$id) }), RunEvent: ref("RunEvent"), DatasetEvent: ref("DatasetEvent"), JobEvent: ref("JobEvent") };
  return compiled;
}

/** Which of the three the sender meant: a run makes a RunEvent, a dataset alone a DatasetEvent, a job alone a JobEvent. */
export function eventKindOf(value: unknown): OpenLineageEventKind | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Json;
  if ("run" in v) return "RunEvent";
  if ("dataset" in v && !("job" in v)) return "DatasetEvent";
  if ("job" in v) return "JobEvent";
  return null;
}

/**
 * The spec's verdict on one event — the schema's root (one of RunEvent, DatasetEvent, JobEvent)
 * decides — with its kind, and the issues (field path under `prefix`, the schema's message) when
 * it is not valid, taken from the kind the sender meant so they name that kind's fields. Wrapper
 * errors (anyOf, allOf) are dropped when a more precise error names a field inside them.
 */
export function checkAgainstSpec(value: unknown, prefix: string): { kind: OpenLineageEventKind | null; issues: FieldIssue[] } {
  const kind = eventKindOf(value);
  if (kind === null) {
    return { kind, issues: [{ path: prefix, message: "must be an OpenLineage RunEvent (run and job), DatasetEvent (dataset) or JobEvent (job)" }] };
  }
  const all = validators();
  if (all.any(value)) return { kind, issues: [] };
  const meant = all[kind];
  if (!meant(value)) return { kind, issues: issuesOf(meant.errors ?? [], prefix, kind) };
  return {
    kind,
    issues: [
      {
        path: prefix,
        message:
          "matches more than one of RunEvent, DatasetEvent and JobEvent (a dataset with a job but no run); the schema needs exactly one (OpenLineage schema)",
      },
    ],
  };
}

const WRAPPERS = new Set(["anyOf", "allOf", "oneOf", "if"]);

function issuesOf(errors: ErrorObject[], prefix: string, kind: OpenLineageEventKind): FieldIssue[] {
  const precise = errors.filter(
    (e) => !WRAPPERS.has(e.keyword) || !errors.some((o) => o !== e && !WRAPPERS.has(o.keyword) && o.instancePath.startsWith(e.instancePath)),
  );
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const e of precise) {
    const path = [prefix, ...e.instancePath.split("/").slice(1).map(unescapePointer), ...missingProperty(e)].join(".");
    const message = e.keyword === "not" ? notMessage(kind) : (e.message ?? "is invalid");
    const key = compositeKey(path, message);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message: `${message} (OpenLineage ${kind} schema)` });
  }
  return out;
}

/** A `required` error names the missing property; the path should too. */
function missingProperty(e: ErrorObject): string[] {
  return e.keyword === "required" ? [String((e.params as { missingProperty: string }).missingProperty)] : [];
}

function notMessage(kind: OpenLineageEventKind): string {
  return kind === "DatasetEvent" ? "a DatasetEvent must not carry a job or a run" : "a JobEvent must not carry a run";
}

const unescapePointer = (s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~");
