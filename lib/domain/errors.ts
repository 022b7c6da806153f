/**
 * What can go wrong in a use case, in the domain's words. Use cases (and the domain) throw these;
 * only the HTTP layer (lib/server/http/route.ts) decides which status each answers — a use case
 * never names an HTTP status.
 */
export type Problem = "not_found" | "conflict" | "forbidden" | "invalid" | "refused" | "upstream_failed";

export abstract class DomainError extends Error {
  abstract readonly problem: Problem;
  /** A machine-readable name for this case where clients match on one (e.g. "dry_run_failed"); else the problem's. */
  code?: string;
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** What the request names does not exist. */
export class NotFoundError extends DomainError {
  readonly problem = "not_found";
}

/** The thing exists but its state now refuses the change (another repair holds the units, the incident moved on). */
export class ConflictError extends DomainError {
  readonly problem = "conflict";
}

/** The actor may not do this (a role or a namespace it lacks). */
export class ForbiddenError extends DomainError {
  readonly problem = "forbidden";
}

/** One input field is wrong, named by its path ("body.units.2"), with why. */
export class InvalidFieldError extends DomainError {
  readonly problem = "invalid";
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`, { issues: [{ path: field, message: reason }] });
  }
}

/**
 * The input as a whole cannot be read — not JSON, empty, nested too deep, text no database can
 * hold — so nothing in it was looked at: names where (`body`, `body.name`) and why. `details`,
 * when given, lists the issues field by field, as a client reads them.
 */
export class MalformedInputError extends DomainError {
  readonly problem = "invalid";
  constructor(
    readonly field: string,
    readonly reason: string,
    details?: { issues: { path: string; message: string }[] },
  ) {
    super(`${field}: ${reason}`, details);
  }
}

/** The input's fields are wrong, each issue naming its path and why; `message` words them for a person. */
export class InvalidInputError extends DomainError {
  readonly problem = "invalid";
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(message, { issues });
  }
}

/** Well-formed, but the domain's rules refuse it (a blocked plan, cleaning a task that replaces its unit). */
export class RefusedError extends DomainError {
  readonly problem = "refused";
}

/** A system the console talks to (an orchestrator, a warehouse) failed to answer what was asked. */
export class UpstreamFailedError extends DomainError {
  readonly problem = "upstream_failed";
}
