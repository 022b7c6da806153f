import type { OrchestratorKind } from "@/lib/contracts/orchestrators";
import { refusalWords, unansweredCause, unansweredWords } from "./fault-words";
import { OrchestratorError, type OrchestratorCall } from "./port";

export interface JsonAnswer<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly call: OrchestratorCall;
}

const TIMEOUT_MS = 15_000;

/**
 * One JSON request to an orchestrator, returned with the call as the audit log records it (the
 * URL without query string; headers, and so credentials, never). A network error or a timeout
 * is an OrchestratorError carrying the call; an HTTP error status is returned for the adapter
 * to read (a 401 may mean "get a new token").
 */
export async function requestJson<T = unknown>(
  orchestrator: OrchestratorKind,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown; dryRun?: boolean; query?: Record<string, string | number | boolean> } = {},
): Promise<JsonAnswer<T>> {
  const shown = url.split("?")[0]!;
  const target = new URL(url);
  for (const [k, v] of Object.entries(options.query ?? {})) target.searchParams.set(k, String(v));
  let res: Response;
  try {
    res = await fetch(target, {
      method,
      headers: { accept: "application/json", ...(options.body !== undefined ? { "content-type": "application/json" } : {}), ...options.headers },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: "manual",
    });
  } catch (e) {
    const error = unansweredCause(e, TIMEOUT_MS);
    const call: OrchestratorCall = { orchestrator, method, url: shown, status: null, error, ...(options.dryRun ? { dryRun: true } : {}) };
    throw new OrchestratorError(unansweredWords(orchestrator, url, e, TIMEOUT_MS), call);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text.slice(0, 500);
  }
  const error = res.status >= 400 ? errorText(body) : undefined;
  const call: OrchestratorCall = {
    orchestrator,
    method,
    url: shown,
    status: res.status,
    ...(error ? { error } : {}),
    ...(options.dryRun ? { dryRun: true } : {}),
  };
  return { status: res.status, body: body as T, call };
}

/** The error an orchestrator answered, in its own words (FastAPI's `detail`, Databricks' `message`, GraphQL's `errors`). */
export function errorText(body: unknown): string {
  if (typeof body === "string") return body.slice(0, 300);
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    if (typeof b.detail === "string") return b.detail.slice(0, 300);
    if (Array.isArray(b.detail))
      return b.detail
        .map((d) => (d && typeof d === "object" ? `${(d as { loc?: unknown[] }).loc?.join(".") ?? ""}: ${(d as { msg?: string }).msg ?? ""}` : String(d)))
        .join("; ")
        .slice(0, 300);
    if (typeof b.message === "string") return `${typeof b.error_code === "string" ? `${b.error_code}: ` : ""}${b.message}`.slice(0, 300);
    if (Array.isArray(b.errors))
      return b.errors
        .map((e) => (e as { message?: string }).message ?? "")
        .join("; ")
        .slice(0, 300);
  }
  return "error";
}

/** Fails with the call attached unless the status is one of `ok`. */
export function expectStatus<T>(answer: JsonAnswer<T>, ok: readonly number[], what: string): JsonAnswer<T> {
  if (!ok.includes(answer.status))
    throw new OrchestratorError(
      refusalWords({ kind: answer.call.orchestrator, url: answer.call.url, status: answer.status, what, detail: answer.call.error }),
      answer.call,
    );
  return answer;
}
