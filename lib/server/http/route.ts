import { NextResponse } from "next/server";
import { ZodError, type ZodType } from "zod";
import { resolveActor } from "../auth/identity";
import { hasRole, type Actor, type Role } from "../auth/roles";
import { DatabaseConfigError } from "../db/database-url";
import { ForbiddenError, HttpError } from "./errors";
import { readJsonBody } from "./read-body";
import { requireWellFormed } from "./well-formed-text";
import { checkSameOrigin } from "./same-origin";

export interface RouteContext<Q, B, P> {
  req: Request;
  query: Q;
  body: B;
  params: P;
  actor: Actor;
}

interface RouteOptions<Q, B, P> {
  query?: ZodType<Q>;
  body?: ZodType<B>;
  params?: ZodType<P>;
  /** Minimum role; mutations default to operator. */
  role?: Role;
  maxBodyBytes?: number;
}

type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The one route wrapper: identity and role, cross-site protection on mutations, zod validation
 * of params/query/body (→ 400 naming each field), and error mapping — so handlers stay a few
 * lines and a bad input never reaches a use case (nothing is written).
 */
export function route<Q = undefined, B = undefined, P = undefined>(
  options: RouteOptions<Q, B, P>,
  handler: (ctx: RouteContext<Q, B, P>) => Promise<unknown>,
): NextHandler {
  return async (req, ctx) => {
    try {
      const mutating = MUTATING.has(req.method);
      if (mutating) checkSameOrigin(req);
      const actor = await resolveActor(req.headers);
      const needed = options.role ?? (mutating ? "operator" : "viewer");
      if (!hasRole(actor, needed)) throw new ForbiddenError(`${actor.id} is a ${actor.role}; this needs the ${needed} role`);
      const params = parseWith(options.params, await ctx.params, "params");
      const query = parseWith(options.query, Object.fromEntries(new URL(req.url).searchParams), "query");
      const body = options.body ? parseWith(options.body, requireWellFormed(await readJsonBody(req, options.maxBodyBytes)), "body") : (undefined as B);
      const result = await handler({ req, query, body, params, actor });
      return result instanceof Response ? result : NextResponse.json(result);
    } catch (e) {
      return errorResponse(e);
    }
  };
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
  const issues = e.issues.map((i) => ({ path: [where, ...i.path.map(String)].join("."), message: i.message }));
  const message = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  return new HttpError(400, "invalid_request", message, { issues });
}

export function errorResponse(e: unknown): Response {
  if (e instanceof HttpError) {
    return NextResponse.json({ error: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) }, { status: e.status });
  }
  if (e instanceof DatabaseConfigError) {
    return NextResponse.json({ error: "database_unavailable", message: e.message }, { status: 503 });
  }
  console.error(e);
  return NextResponse.json({ error: "internal", message: "internal error; see the server log" }, { status: 500 });
}
