import { NextResponse } from "next/server";
import { ZodError, type ZodType } from "zod";
import { describeIssues, fieldIssues } from "@/lib/contracts/field-issues";
import { resolveActor, UnauthenticatedError } from "../auth/identity";
import { requireNamespaces } from "../auth/namespace-guard";
import { spendTokenBudget, TooManyRequestsError } from "../auth/token-rate-limit";
import { BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from "./busy";
import { hasRole, type Actor, type Role, type TokenScope } from "../auth/roles";
import { DatabaseConfigError } from "../db/database-url";
import { isUniqueViolation } from "../db/db-errors";
import { DomainError, ForbiddenError, type Problem } from "@/lib/domain/errors";
import { HttpError } from "./errors";
import { readJsonBody, readTextBody, type RawBody } from "./read-body";
import { requireWellFormed } from "@/lib/domain/well-formed-text";
import { checkSameOrigin } from "./same-origin";
import { log } from "../observability/log";
import { metrics, routeTemplate } from "../observability/metrics";
import { article } from "@/lib/domain/words";

export interface RouteContext<Q, B, P> {
  req: Request;
  /** With the rawBody option: the body's text, read once within its limit (413 beyond), the same text on a retry. */
  rawBody: RawBody;
  query: Q;
  body: B;
  params: P;
  actor: Actor;
}

interface RouteOptions<Q, B, P, R> {
  query?: ZodType<Q>;
  body?: ZodType<B>;
  params?: ZodType<P>;
  /** Minimum role; mutations default to operator. */
  role?: Role;
  /** Machine-token scopes this route accepts; a token of any other scope is refused (403). */
  tokens?: readonly TokenScope[];
  /** Answers anonymous readers even when REPARO_ANONYMOUS_READ=0 (health, who am I). */
  public?: boolean;
  /** false for handlers with an effect outside the database (a POST to an orchestrator, a webhook): never run twice. */
  retryWhenBusy?: boolean;
  maxBodyBytes?: number;
  /**
   * Batch endpoints that parse their own body (OpenLineage, NDJSON, ledger batches) declare its
   * limit here and read `rawBody()`: read once, kept for the busy-database retries whatever its
   * size — instead of reading the Request themselves.
   */
  rawBody?: { maxBytes: number };
  /**
   * The answer's contract (lib/contracts): the handler's result is typed by it, and outside
   * production each answer is checked against it, so a use case cannot drift from what the
   * browser parses. A handler may still answer a Response of its own (a 202, a stream).
   */
  response?: ZodType<R>;
}

type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The one route wrapper: identity and role, cross-site protection on mutations, zod validation
 * of params/query/body (→ 400 naming each field), and error mapping — so handlers stay a few
 * lines and a bad input never reaches a use case (nothing is written).
 */
export function route<Q = undefined, B = undefined, P = undefined, R = unknown>(
  options: RouteOptions<Q, B, P, R>,
  handler: (ctx: RouteContext<Q, B, P>) => Promise<R | Response>,
): NextHandler {
  return async (req, ctx) => {
    const started = performance.now();
    const reqId = requestId(req);
    let rawParams: Record<string, string | string[]> | undefined;
    const response = await (async () => {
      try {
        rawParams = await ctx?.params;
        const mutating = MUTATING.has(req.method);
        const actor = await resolveActor(req.headers);
        await spendTokenBudget(actor);
        // A token is no ambient credential (a browser never attaches one): no cross-site check.
        if (mutating && actor.source !== "token") checkSameOrigin(req);
        if (!options.public) authorize(actor, options.role ?? (mutating ? "operator" : "viewer"), options.tokens ?? []);
        if (actor.source === "anonymous" && process.env.REPARO_ANONYMOUS_READ === "0" && !options.public)
          throw new UnauthenticatedError("sign in to read this console (REPARO_ANONYMOUS_READ=0)");
        if (options.body || options.rawBody) requireJsonContentType(req, !!options.rawBody);
        const params = parseWith(options.params, await ctx.params, "params");
        const query = parseWith(options.query, Object.fromEntries(new URL(req.url).searchParams), "query");
        const body = options.body ? parseWith(options.body, requireWellFormed(await readJsonBody(req, options.maxBodyBytes)), "body") : (undefined as B);
        if (mutating) await requireNamespaces(actor, new URL(req.url).pathname, params, body);
        // Handlers that read the raw body themselves get a fresh copy on a retry.
        // (Bodies over 1 MiB are not kept twice: such a request is answered 503 at once when busy.)
        const declared = Number(req.headers.get("content-length") ?? NaN);
        const raw = options.rawBody ? once(() => readTextBody(req, options.rawBody!.maxBytes)) : noRawBody;
        const readsRequest = mutating && !options.body && !options.rawBody;
        const spares = readsRequest && declared <= 1_048_576 ? Array.from({ length: BUSY_RETRIES }, () => req.clone()) : [];
        const retries = options.retryWhenBusy === false ? 0 : readsRequest ? spares.length : BUSY_RETRIES;
        const result = await withBusyRetries(retries, (attempt) =>
          handler({ req: attempt === 0 ? req : spares[attempt - 1]!, rawBody: raw, query, body, params, actor }),
        );
        if (result instanceof Response) return result;
        if (options.response && process.env.NODE_ENV !== "production") {
          // As the browser receives it: after JSON (instants become strings).
          const checked = options.response.safeParse(JSON.parse(JSON.stringify(result)));
          if (!checked.success) {
            const why = `the answer breaks its contract: ${describeIssues(fieldIssues(checked.error, "response"))}`;
            // A read fails loudly; a change has already committed, so it is answered and the drift logged.
            if (!mutating) throw new Error(why);
            log.error({ reqId, path: new URL(req.url).pathname }, why);
          }
        }
        return NextResponse.json(result);
      } catch (e) {
        return errorResponse(e, reqId);
      }
    })();
    observe(req, response, rawParams, reqId, started);
    return response;
  };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
const NDJSON_TYPE = /^application\/(?:x-ndjson|ndjson|jsonl|x-jsonlines)$/;

/**
 * A body is JSON (or, on the ingestion routes, NDJSON), and says so: a form's or a text/plain
 * body is refused 415 before it is read — a browser sends those cross-site without asking.
 */
function requireJsonContentType(req: Request, ndjson: boolean): void {
  const declared = req.headers.get("content-length");
  if (!req.body && (declared === null || declared === "0")) return;
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (JSON_TYPE.test(type) || (ndjson && NDJSON_TYPE.test(type))) return;
  const allowed = ndjson ? "application/json or application/x-ndjson" : "application/json";
  throw new HttpError(415, "unsupported_media_type", `headers.content-type: ${type === "" ? "missing" : type}; send the body as ${allowed}`, {
    issues: [{ path: "headers.content-type", message: `must be ${allowed}` }],
  });
}

/** A body read once: every call answers the first call's promise. */
function once(read: () => Promise<string>): RawBody {
  let text: Promise<string> | null = null;
  return () => (text ??= read());
}

const noRawBody: RawBody = () => Promise.reject(new Error("this route declares no rawBody option"));

/** The balancer's request id (X-Request-Id, which HAProxy and nginx can set) or a new one. */
function requestId(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
}

/** Every answer carries its request id; its latency is measured by route template and logged. */
function observe(req: Request, res: Response, params: Record<string, string | string[]> | undefined, reqId: string, started: number): void {
  try {
    res.headers.set("x-request-id", reqId);
  } catch {
    // an immutable Response (a redirect): the log line still has the id
  }
  const url = new URL(req.url);
  const template = routeTemplate(url.pathname, params);
  const seconds = (performance.now() - started) / 1000;
  metrics().requestSeconds.observe({ method: req.method, route: template, status: String(res.status) }, seconds);
  log.info({ reqId, method: req.method, route: template, status: res.status, ms: Math.round(seconds * 1000) }, "request");
}

/**
 * A busy database (SQLite's writer lock past the busy timeout or a stale snapshot, a PostgreSQL
 * serialization failure or deadlock) rolled the handler's transaction back: it is tried again
 * BUSY_RETRIES times after a short, jittered pause, then answered 503 with Retry-After.
 * Handlers write in one transaction and ingestion is idempotent, so a retry applies a change once.
 */
const BUSY_RETRIES = 2;
const LONG_WAIT_MS = 2_000;

async function withBusyRetries<T>(retries: number, run: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const started = performance.now();
    try {
      return await run(attempt);
    } catch (e) {
      // A try that already waited out the lock wait (another process holds the database): the
      // client is told at once (503, Retry-After) rather than after two more such waits.
      const waitedLong = performance.now() - started > LONG_WAIT_MS;
      if (attempt >= retries || !isDatabaseBusy(e) || waitedLong) throw e;
      await new Promise((r) => setTimeout(r, 100 * 3 ** attempt + Math.random() * 100));
    }
  }
}

const SCOPE_ROUTES: Record<TokenScope, string> = {
  ingest: "lineage, lineage/batch, publishes, source-counts, warehouse-counts, datasets/{id}/partitions, frontier-certificates, import/dbt",
  declare: "declarations",
};

function authorize(actor: Actor, needed: Role, scopes: readonly TokenScope[]): void {
  if (actor.tokenScope && !scopes.includes(actor.tokenScope)) {
    throw new ForbiddenError(
      `${actor.id} is a machine token of scope ${actor.tokenScope}: it may call only the ${actor.tokenScope} routes (${SCOPE_ROUTES[actor.tokenScope]})`,
    );
  }
  if (hasRole(actor, needed)) return;
  if (actor.source === "anonymous") throw new UnauthenticatedError(`sign in, or send a machine token as Authorization: Bearer: this needs the ${needed} role`);
  throw new ForbiddenError(`${actor.id} is ${article(actor.role)} ${actor.role}; this needs the ${needed} role`);
}

function parseWith<T>(schema: ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  try {
    return schema.parse(value);
  } catch (e) {
    if (e instanceof ZodError) throw zodToHttp(e, where);
    throw e;
  }
}

export function zodToHttp(e: ZodError, where: string): HttpError {
  const issues = fieldIssues(e, where);
  const message = describeIssues(issues);
  return new HttpError(400, "invalid_request", message, { issues });
}

/** The one place a domain problem becomes an HTTP status (and the error code the body names). */
const HTTP_OF: Record<Problem, { status: number; code: string }> = {
  invalid: { status: 400, code: "invalid_request" },
  forbidden: { status: 403, code: "forbidden" },
  not_found: { status: 404, code: "not_found" },
  conflict: { status: 409, code: "conflict" },
  refused: { status: 422, code: "unprocessable" },
  upstream_failed: { status: 502, code: "upstream_failed" },
};

/** The status and error code a domain problem answers: route()'s table, for a refusal answered with a body of its own. */
export function httpOfProblem(problem: Problem): { status: number; code: string } {
  return HTTP_OF[problem];
}

/** The HTTP status an error answers (500 for what is neither a domain problem nor an HTTP one). */
export function statusOfError(e: unknown): number {
  return e instanceof DomainError ? HTTP_OF[e.problem].status : e instanceof HttpError ? e.status : 500;
}

export function errorResponse(e: unknown, reqId?: string): Response {
  if (e instanceof DomainError) {
    // IncidentTransitionRefused is a conflict whose details say the status now and the ones allowed.
    const { status, code } = HTTP_OF[e.problem];
    return NextResponse.json({ error: e.code ?? code, message: e.message, ...(e.details ? { details: e.details } : {}) }, { status });
  }
  if (e instanceof HttpError) {
    const headers: Record<string, string> =
      e instanceof UnauthenticatedError
        ? { "www-authenticate": e.challenge }
        : e instanceof TooManyRequestsError
          ? { "retry-after": String(e.retryAfterSeconds) }
          : {};
    return NextResponse.json({ error: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) }, { status: e.status, headers });
  }
  if (e instanceof DatabaseConfigError) {
    return NextResponse.json({ error: "database_unavailable", message: e.message }, { status: 503 });
  }
  if (isDatabaseBusy(e)) {
    return NextResponse.json(
      { error: "database_busy", message: `the database is busy (another writer holds it): retry in ${BUSY_RETRY_AFTER_SECONDS} s` },
      { status: 503, headers: { "retry-after": String(BUSY_RETRY_AFTER_SECONDS) } },
    );
  }
  if (isUniqueViolation(e)) {
    // A race the handler's own retries did not settle (another instance kept winning): the
    // request changed nothing and may be sent again.
    return NextResponse.json(
      { error: "conflict", message: "another request wrote the same record at the same moment; nothing was changed: retry" },
      { status: 409, headers: { "retry-after": "1" } },
    );
  }
  log.error({ reqId, err: e }, "internal error");
  return NextResponse.json({ error: "internal", message: `internal error; see the server log${reqId ? ` (request ${reqId})` : ""}` }, { status: 500 });
}
