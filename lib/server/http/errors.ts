/**
 * Problems of the HTTP exchange itself (no session, too many requests, a body too large or not
 * JSON): they carry their status. A use case throws lib/domain/errors.ts instead.
 */
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
