import type { OrchestratorKind } from "@/lib/contracts/orchestrators";
import { refusalWords } from "./fault-words";
import { requestJson, type JsonAnswer } from "./http";
import { OrchestratorError, type OrchestratorCall } from "./port";

/**
 * The one way an adapter talks to its peer: what a request builder says to send goes out here,
 * with the peer's auth, the timeout (http.ts requestJson), one retry with renewed credentials on a
 * 401 when the auth can renew them, and every call — the retried one and the sign-in too — kept
 * in order as the audit log records it (status and ids, never a header or a secret).
 *
 * An adapter opens one `Exchange` per operation (a preview, a wave's dispatch, a poll, a cancel);
 * its `calls` are what the operation returns, and a failure carries the calls made before it.
 */

/** How a peer is authenticated: the headers of one request, renewed when the peer answered 401. */
export interface PeerAuth {
  headers(
    exchange: Exchange,
    request: { readonly method: string; readonly url: string; readonly what?: string },
    renew: boolean,
  ): Promise<Record<string, string>>;
  /** Whether a 401 is worth one retry with renewed credentials (a token that expired). */
  readonly renewsOn401: boolean;
  /** The user requests are sent as (named in a refusal: "the user reparo lacks the permission…"). */
  readonly user?: string;
}

export type CallIds = NonNullable<OrchestratorCall["ids"]>;

export interface PeerRequest<T> {
  readonly method: string;
  /** The path under the peer's base URL. */
  readonly path: string;
  readonly body?: unknown;
  readonly query?: Record<string, string | number | boolean>;
  readonly dryRun?: boolean;
  /** What the answer carried, for the record (it may be an error's body: read it defensively). */
  readonly ids?: (answer: JsonAnswer<T>) => CallIds;
  /** The statuses that mean success: any other fails the operation, saying what it was doing (`what`). */
  readonly expect?: readonly number[];
  readonly what?: string;
  /** Sent without the auth's headers (the sign-in itself). */
  readonly anonymous?: boolean;
  /** The sign-in of this user: a 401 means its password was refused. */
  readonly signInAs?: string;
}

export class Exchange {
  readonly calls: OrchestratorCall[] = [];

  constructor(
    readonly orchestrator: OrchestratorKind,
    readonly baseUrl: string,
    private readonly auth: PeerAuth | null,
  ) {}

  async send<T = unknown>(request: PeerRequest<T>): Promise<JsonAnswer<T>> {
    const url = `${this.baseUrl}${request.path}`;
    for (let attempt = 0; ; attempt++) {
      const renew = attempt > 0;
      const headers = this.auth && !request.anonymous ? await this.auth.headers(this, { method: request.method, url, what: request.what }, renew) : {};
      let answer: JsonAnswer<T>;
      try {
        answer = await requestJson<T>(this.orchestrator, request.method, url, {
          headers,
          body: request.body,
          query: request.query,
          dryRun: request.dryRun,
        });
      } catch (e) {
        if (e instanceof OrchestratorError) throw new OrchestratorError(e.message, e.call, [...this.calls]);
        throw e;
      }
      if (answer.status === 401 && !renew && this.auth?.renewsOn401 && !request.anonymous) {
        this.calls.push(answer.call);
        continue;
      }
      const call: OrchestratorCall = request.ids ? { ...answer.call, ids: request.ids(answer) } : answer.call;
      this.calls.push(call);
      if (request.expect && !request.expect.includes(answer.status))
        throw this.failure(
          refusalWords({
            kind: this.orchestrator,
            url,
            status: answer.status,
            what: request.what ?? `${request.method} ${request.path}`,
            detail: call.error,
            user: request.signInAs ?? this.auth?.user,
            signIn: request.signInAs !== undefined,
          }),
          call,
        );
      return { ...answer, call };
    }
  }

  /**
   * The operation fails on an answer whose status was expected but whose body was not: its recorded
   * call, with `error` saying what was wrong, and the calls made before it (never that call twice).
   */
  refuse(answer: { readonly call: OrchestratorCall }, error: string, message: string): OrchestratorError {
    return new OrchestratorError(
      message,
      { ...answer.call, error },
      this.calls.filter((c) => c !== answer.call),
    );
  }

  /** The operation fails on `call` (already recorded), with the calls made before it. */
  failure(message: string, call: OrchestratorCall): OrchestratorError {
    return new OrchestratorError(
      message,
      call,
      this.calls.filter((c) => c !== call),
    );
  }
}

/** A peer at `baseUrl`: each operation opens its own exchange. */
export function peerTransport(orchestrator: OrchestratorKind, baseUrl: string, auth: PeerAuth | null): { exchange(): Exchange } {
  return { exchange: () => new Exchange(orchestrator, baseUrl, auth) };
}
