/** Errors a use case can throw; the route wrapper maps each to its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(404, "not_found", message, details);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(409, "conflict", message, details);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message: string) {
    super(403, "forbidden", message);
  }
}

export class BadRequestError extends HttpError {
  constructor(field: string, reason: string) {
    super(400, "invalid_request", `${field}: ${reason}`, { issues: [{ path: field, message: reason }] });
  }
}

export class UnprocessableError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(422, "unprocessable", message, details);
  }
}
