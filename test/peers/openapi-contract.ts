import { readFileSync } from "node:fs";
import { basename } from "node:path";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";

/**
 * A published OpenAPI 3.1 document used as a test oracle: given a concrete request (method, path,
 * query, body) it finds the documented operation and says what the document refuses, and given a
 * response it says whether that status is documented and the body matches its schema.
 *
 * Schemas are JSON Schema 2020-12 (Ajv2020 + ajv-formats). Two things are rewritten, on a copy
 * only: OpenAPI's `nullable: true` (kept by client-generated documents such as Airflow's
 * `spec/v2.yaml`) becomes a JSON Schema null alternative, and local `$ref`s (`#/components/...`)
 * become absolute against the document's `$id`, so any sub-schema compiles on its own.
 */

export type JsonSchema = boolean | { [keyword: string]: unknown };

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
const METHODS: readonly HttpMethod[] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}
export interface MediaTypeObject {
  schema?: JsonSchema;
}
export interface RequestBodyObject {
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}
export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaTypeObject>;
}
export interface OperationObject {
  operationId?: string;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses?: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
}
export type PathItemObject = Partial<Record<HttpMethod, OperationObject>> & { parameters?: ParameterObject[] };
export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  paths: Record<string, PathItemObject>;
  components?: { schemas?: Record<string, JsonSchema>; [section: string]: unknown };
}

/** Reads and parses an OpenAPI document (YAML or JSON, YAML being a superset). */
export function loadOpenApi(path: string): OpenApiDocument {
  const doc: unknown = parseYaml(readFileSync(path, "utf8"));
  if (!isObject(doc) || typeof doc.openapi !== "string" || !isObject(doc.paths)) {
    throw new Error(`${path} is not an OpenAPI document (no "openapi" version or "paths")`);
  }
  return doc as unknown as OpenApiDocument;
}

/** The documented operation a concrete request falls on. */
export interface MatchedOperation {
  /** The path template, e.g. `/api/v2/dags/{dag_id}/clearTaskInstances`. */
  template: string;
  method: HttpMethod;
  operation: OperationObject;
  /** Path parameters taken from the concrete path (URI-decoded). */
  pathParams: Record<string, string>;
}

/** Where in the request a problem is, as FastAPI names it in a 422's `loc`. */
export type IssueLocation = "body" | "path" | "query";

/** One thing the document refuses in a request, structured (for a 422) and as text. */
export interface ContractIssue {
  in: IssueLocation;
  /** FastAPI/pydantic-style location, e.g. `["body", "run_on_latest_version"]`. */
  loc: (string | number)[];
  /** Ajv's keyword (`additionalProperties`, `type`, `required`, ...). */
  keyword: string;
  message: string;
  /** The readable violation line, prefixed with the method and path. */
  text: string;
}

export interface RequestCheck {
  /** Absent when no documented operation has this method and path. */
  match?: MatchedOperation;
  /** True when the path is documented but not for this method. */
  methodNotAllowed: boolean;
  issues: ContractIssue[];
  /** Every problem as a readable line (issues' texts plus "not documented" findings). */
  violations: string[];
}

export interface RequestInput {
  method: string;
  /** The concrete path, without the query (a query after `?` is ignored here; pass `query`). */
  path: string;
  query?: URLSearchParams;
  /** The parsed body; `undefined` when the request has none. */
  body?: unknown;
  /** The request's Content-Type (parameters such as `; charset=` are ignored). */
  contentType?: string | null;
}

export interface ResponseInput {
  method: string;
  path: string;
  status: number;
  body: unknown;
  contentType?: string;
}

const META_KEYS = ["title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly"];
let documentCounter = 0;

/** Validation against one OpenAPI document. */
export class OpenApiContract {
  readonly id: string;
  readonly document: OpenApiDocument;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();
  private readonly templates: { template: string; segments: string[]; literals: number }[];

  constructor(document: OpenApiDocument, name = "openapi") {
    documentCounter += 1;
    this.id = `https://contracts.reparo.invalid/${documentCounter}/${encodeURIComponent(name)}`;
    this.document = normalizeSchemas(structuredClone(document), this.id) as OpenApiDocument;
    this.ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...this.document, $id: this.id });
    this.templates = Object.keys(this.document.paths).map((template) => {
      const segments = splitPath(template);
      return { template, segments, literals: segments.filter((s) => !isTemplateSegment(s)).length };
    });
  }

  static fromFile(path: string): OpenApiContract {
    return new OpenApiContract(loadOpenApi(path), basename(path));
  }

  /**
   * The documented operation for a method and concrete path. Templates whose segments match are
   * ranked segment by segment, a literal segment beating a `{param}` one (so `/dags/~/dagRuns`
   * style literals win over `/dags/{dag_id}/...` when both fit).
   */
  match(method: string, path: string): { match?: MatchedOperation; pathDocumented: boolean } {
    const m = method.toLowerCase() as HttpMethod;
    const concrete = splitPath(path.split("?")[0] ?? "");
    const candidates = this.templates
      .filter((t) => t.segments.length === concrete.length && t.segments.every((s, i) => isTemplateSegment(s) || s === concrete[i]))
      .sort((a, b) => compareSpecificity(a.segments, b.segments));
    if (candidates.length === 0) return { pathDocumented: false };
    for (const candidate of candidates) {
      const item = this.document.paths[candidate.template];
      const operation = item?.[m];
      if (!item || !operation || !METHODS.includes(m)) continue;
      const pathParams: Record<string, string> = {};
      candidate.segments.forEach((s, i) => {
        if (isTemplateSegment(s)) pathParams[s.slice(1, -1)] = safeDecode(concrete[i] ?? "");
      });
      return { match: { template: candidate.template, method: m, operation, pathParams }, pathDocumented: true };
    }
    return { pathDocumented: true };
  }

  /** Checks a request: documented operation, path and query parameters, JSON/form body. */
  validateRequest(input: RequestInput): RequestCheck {
    const label = `${input.method.toUpperCase()} ${input.path}`;
    const { match, pathDocumented } = this.match(input.method, input.path);
    if (!match) {
      const violation = pathDocumented
        ? `${label}: the document has no ${input.method.toUpperCase()} operation for this path`
        : `${label}: no operation of the document matches this path`;
      return { methodNotAllowed: pathDocumented, issues: [], violations: [violation] };
    }
    const issues: ContractIssue[] = [];
    const violations: string[] = [];
    const parameters = this.parametersOf(match);

    for (const p of parameters.filter((q) => q.in === "path")) {
      const value = match.pathParams[p.name];
      if (value === undefined || value === "") {
        issues.push(issue("path", [p.name], "required", "Field required", `${label} path parameter ${p.name}: missing`));
        continue;
      }
      if (p.schema !== undefined) {
        for (const e of this.errors(p.schema, coerceParameter(value, p.schema))) {
          issues.push(issue("path", [p.name, ...pointerParts(e.instancePath)], e.keyword, describe(e), `${label} path parameter ${p.name}: ${describe(e)}`));
        }
      }
    }
    const query = input.query ?? new URLSearchParams();
    for (const p of parameters.filter((q) => q.in === "query")) {
      const values = query.getAll(p.name);
      if (values.length === 0) {
        if (p.required) issues.push(issue("query", [p.name], "required", "Field required", `${label} query parameter ${p.name}: missing`));
        continue;
      }
      if (p.schema === undefined) continue;
      const isArray = isObject(p.schema) && p.schema.type === "array";
      const items = isArray && isObject(p.schema) ? (p.schema.items as JsonSchema | undefined) : undefined;
      const value = isArray ? values.map((v) => (items === undefined ? v : coerceParameter(v, items))) : coerceParameter(values[0] ?? "", p.schema);
      for (const e of this.errors(p.schema, value)) {
        issues.push(issue("query", [p.name, ...pointerParts(e.instancePath)], e.keyword, describe(e), `${label} query parameter ${p.name}: ${describe(e)}`));
      }
    }

    const requestBody = match.operation.requestBody;
    if (requestBody) {
      if (input.body === undefined) {
        if (requestBody.required) issues.push(issue("body", [], "required", "Field required", `${label} request body: missing (the operation requires one)`));
      } else {
        const contentTypes = Object.keys(requestBody.content ?? {});
        const sent = mediaType(input.contentType) ?? "application/json";
        const chosen = contentTypes.find((c) => c === sent);
        if (!chosen) {
          violations.push(`${label} request body: content type ${sent} is not documented (documented: ${contentTypes.join(", ") || "none"})`);
        } else {
          const schema = requestBody.content?.[chosen]?.schema;
          if (schema !== undefined) {
            for (const e of this.errors(schema, input.body)) {
              const loc = ["body", ...pointerParts(e.instancePath), ...extraLoc(e)];
              issues.push({
                in: "body",
                loc,
                keyword: e.keyword,
                message: describe(e),
                text: `${label} request body${atPointer(e.instancePath)}: ${describe(e)}`,
              });
            }
          }
        }
      }
    } else if (input.body !== undefined) {
      violations.push(`${label} request body: the operation documents no request body`);
    }
    return { match, methodNotAllowed: false, issues, violations: [...issues.map((i) => i.text), ...violations] };
  }

  /** Checks a response: its status must be documented for the operation and its body match. */
  validateResponse(input: ResponseInput): string[] {
    const label = `${input.method.toUpperCase()} ${input.path}`;
    const { match } = this.match(input.method, input.path);
    if (!match) return [`${label} response ${input.status}: no documented operation to answer for`];
    const responses = match.operation.responses ?? {};
    const key = [String(input.status), `${String(input.status)[0]}XX`, "default"].find((k) => k in responses);
    if (key === undefined) {
      return [`${label} response ${input.status}: status not documented for this operation (documented: ${Object.keys(responses).join(", ")})`];
    }
    const content = responses[key]?.content;
    if (!content) return [];
    const type = mediaType(input.contentType) ?? "application/json";
    const media = content[type];
    if (!media) return [`${label} response ${input.status}: content type ${type} is not documented`];
    if (media.schema === undefined) return [];
    return this.errors(media.schema, input.body).map((e) => `${label} response ${input.status} body${atPointer(e.instancePath)}: ${describe(e)}`);
  }

  /** Validates a value against `#/components/schemas/<name>`; readable lines, empty when valid. */
  validateSchema(name: string, value: unknown): string[] {
    if (!this.document.components?.schemas?.[name]) throw new Error(`no schema ${name} in ${this.id}`);
    return this.errors({ $ref: `${this.id}#/components/schemas/${name}` }, value).map((e) => `${name}${atPointer(e.instancePath)}: ${describe(e)}`);
  }

  private parametersOf(match: MatchedOperation): ParameterObject[] {
    const byKey = new Map<string, ParameterObject>();
    const item = this.document.paths[match.template];
    for (const p of [...(item?.parameters ?? []), ...(match.operation.parameters ?? [])]) {
      const resolved = this.resolveLocal(p) as ParameterObject;
      byKey.set(`${resolved.in}:${resolved.name}`, resolved);
    }
    return [...byKey.values()];
  }

  /** Follows a `$ref` object (e.g. a parameter by reference) inside this document. */
  private resolveLocal(node: unknown): unknown {
    if (!isObject(node) || typeof node.$ref !== "string" || !node.$ref.startsWith(`${this.id}#/`)) return node;
    let at: unknown = this.document;
    for (const part of node.$ref.slice(this.id.length + 2).split("/")) {
      at = isObject(at) ? at[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    }
    return at;
  }

  private errors(schema: JsonSchema, value: unknown): ErrorObject[] {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []);
  }
}

function issue(where: IssueLocation, loc: (string | number)[], keyword: string, message: string, text: string): ContractIssue {
  return { in: where, loc: [where, ...loc], keyword, message, text };
}

/** Ajv's message plus the detail that makes it actionable (which property, which values). */
function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const message = e.message ?? e.keyword;
  if (e.keyword === "additionalProperties") return `${message} (${String(p.additionalProperty)})`;
  if (e.keyword === "enum") return `${message} (${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")})`;
  if (e.keyword === "const") return `${message} (${JSON.stringify(p.allowedValue)})`;
  return message;
}

/** The property an error names beyond its instance path (an extra or a missing property). */
function extraLoc(e: ErrorObject): string[] {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === "additionalProperties") return [String(p.additionalProperty)];
  if (e.keyword === "required") return [String(p.missingProperty)];
  return [];
}

function atPointer(pointer: string): string {
  return pointer ? ` ${pointer}` : "";
}

function pointerParts(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => {
      const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      return /^\d+$/.test(part) ? Number(part) : part;
    });
}

function mediaType(contentType: string | null | undefined): string | undefined {
  const t = contentType?.split(";")[0]?.trim().toLowerCase();
  return t ? t : undefined;
}

/** Path and query parameters arrive as text; give them the JSON type their schema names. */
function coerceParameter(value: string, schema: JsonSchema): unknown {
  if (!isObject(schema)) return value;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes("integer") || types.includes("number")) && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  if (types.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  return value;
}

function splitPath(path: string): string[] {
  return path.split("/").filter((s, i) => i > 0 || s !== "");
}

function isTemplateSegment(segment: string): boolean {
  return segment.startsWith("{") && segment.endsWith("}");
}

function compareSpecificity(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i += 1) {
    const la = !isTemplateSegment(a[i] ?? "");
    const lb = !isTemplateSegment(b[i] ?? "");
    if (la !== lb) return la ? -1 : 1;
  }
  return 0;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Rewrites, in place, OpenAPI's `nullable: true` into JSON Schema 2020-12 and local `$ref`s into
 * absolute ones: `{type: T, nullable: true}` → `{type: [T, "null"]}` (and `null` joins an `enum`);
 * a `$ref`/`anyOf`/`oneOf`/`allOf`/`const` schema → `{anyOf: [schema, {type: "null"}]}` with its
 * title, description and default kept outside.
 */
export function normalizeSchemas(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((n) => normalizeSchemas(n, id));
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = normalizeSchemas(v, id);
  if (typeof out.$ref === "string" && out.$ref.startsWith("#")) out.$ref = `${id}${out.$ref}`;
  if (typeof out.nullable !== "boolean") return out;
  const { nullable, ...rest } = out;
  if (!nullable) return rest;
  const composite = ["$ref", "anyOf", "oneOf", "allOf", "const", "not"].some((k) => k in rest);
  if (!composite && (typeof rest.type === "string" || Array.isArray(rest.type))) {
    const types = Array.isArray(rest.type) ? (rest.type as unknown[]) : [rest.type];
    rest.type = types.includes("null") ? types : [...types, "null"];
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
    return rest;
  }
  if (!composite && rest.type === undefined && rest.enum === undefined) return rest; // already unconstrained
  const meta: Record<string, unknown> = {};
  const core: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) (META_KEYS.includes(k) ? meta : core)[k] = v;
  return { ...meta, anyOf: [core, { type: "null" }] };
}
