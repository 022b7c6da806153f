import type { OrchestratorKind } from "@/lib/contracts/orchestrators";

/**
 * A peer's failure in the words a commander reads on the wizard: which peer (its name and the
 * address it was asked at) and why, in plain words, with the status for whoever reads the
 * peer's own logs. `OrchestratorError` messages are built here, so every adapter names its
 * faults the same way.
 */

const PEER_NAMES: Record<OrchestratorKind, string> = {
  airflow: "Airflow",
  dagster: "Dagster",
  databricks: "Databricks",
  dbt: "dbt",
  local: "This console's executor",
  none: "No orchestrator",
};

/** "Airflow at http://airflow:8080": the peer and the origin it was asked at (never a path or a query). */
export function peerAt(kind: OrchestratorKind, url: string): string {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // not a URL: shown as given
  }
  return `${PEER_NAMES[kind]} at ${origin}`;
}

/** Node's network error codes, in words. */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "its host name is not known",
  EAI_AGAIN: "its host name could not be resolved",
  EHOSTUNREACH: "no route to its host",
  ENETUNREACH: "the network is unreachable",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_SOCKET: "the connection closed before it answered",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
};

/** The network error of a fetch that got no answer: its cause's code in words, else its message. */
export function networkCause(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } } | null;
  const code = e?.cause?.code;
  if (code && NETWORK_WORDS[code]) return NETWORK_WORDS[code];
  return e?.cause?.message ?? e?.message ?? String(error);
}

const timedOut = (error: unknown) => (error as Error | null)?.name === "TimeoutError";

/** Why a request got no answer, alone (the audit log's call error): "connection refused", "no answer within 15 s". */
export function unansweredCause(error: unknown, timeoutMs: number): string {
  return timedOut(error) ? `no answer within ${timeoutMs / 1000} s` : networkCause(error);
}

/** A request that got no answer: not reachable, or no answer in time. */
export function unansweredWords(kind: OrchestratorKind, url: string, error: unknown, timeoutMs: number): string {
  if (timedOut(error)) return `${peerAt(kind, url)} did not answer within ${timeoutMs / 1000} s`;
  return `${peerAt(kind, url)} is not reachable: ${networkCause(error)}`;
}

export interface Refusal {
  readonly kind: OrchestratorKind;
  readonly url: string;
  readonly status: number;
  /** What Reparo was doing, as a gerund phrase: "clearing stg_orders in orders". */
  readonly what: string;
  /** The peer's own error text, if it gave one. */
  readonly detail?: string;
  /** The user the request was sent as (Airflow's `username`), if any. */
  readonly user?: string;
  /** The request was the sign-in itself (a 401 then means the password). */
  readonly signIn?: boolean;
}

/** An answer with an error status, in words: who refused what, and why it likely did. */
export function refusalWords(r: Refusal): string {
  const peer = peerAt(r.kind, r.url);
  const said = r.detail && r.detail !== "error" ? `: "${r.detail}"` : "";
  const lacks = r.user ? `the user ${r.user} lacks` : "Reparo's credentials lack";
  switch (true) {
    case r.status === 401 && r.signIn:
      return `${peer} refused the password of user ${r.user ?? "?"} (401) while ${r.what}`;
    case r.status === 401:
      return `${peer} refused ${r.user ? `the token of user ${r.user}` : "Reparo's token"} (401) while ${r.what}${said}`;
    case r.status === 403:
      return `${peer}: ${lacks} the permission for ${r.what} (403)${said}`;
    case r.status === 404:
      return `${peer} does not know what Reparo asked for while ${r.what} (404)${said}`;
    case r.status === 429:
      return `${peer} is rate-limiting Reparo (429) while ${r.what}`;
    case r.status >= 500:
      return `${peer} failed on its side (${r.status}) while ${r.what}${said}`;
    default:
      return `${peer} refused ${r.what} (${r.status})${said}`;
  }
}
