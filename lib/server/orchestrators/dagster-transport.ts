import type { ZodType } from "zod";
import type { DagsterConnection } from "@/lib/contracts/orchestrators";
import { errorText, expectStatus, requestJson, type JsonAnswer } from "./http";
import { OrchestratorError, type OrchestratorCall } from "./port";
import { readSecret } from "./secrets";

interface GraphQLAnswer<T> {
  readonly data?: T | null;
  readonly errors?: readonly { message?: string }[];
}

/**
 * Dagster's webserver answers an exception it caught (a PythonError member, e.g. an unknown asset
 * key in launchPartitionBackfill) with HTTP 500 and the data: the call's error is then its words.
 */
function withRaisedError<T>(answer: JsonAnswer<GraphQLAnswer<T>>): JsonAnswer<GraphQLAnswer<T>> {
  const data: unknown = answer.status === 500 && answer.body && typeof answer.body === "object" ? answer.body.data : null;
  const raised = data && typeof data === "object" ? Object.values(data as Record<string, unknown>).find(isPythonError) : undefined;
  return raised ? { ...answer, call: { ...answer.call, error: `PythonError: ${raised.message.trim()}` } } : answer;
}
const isPythonError = (v: unknown): v is { message: string } =>
  typeof v === "object" &&
  v !== null &&
  (v as { __typename?: unknown }).__typename === "PythonError" &&
  typeof (v as { message?: unknown }).message === "string";

/**
 * The one transport to a Dagster webserver's GraphQL endpoint (`${baseUrl}/graphql`), shared by
 * the repair adapter (dagster.ts) and the Dagster source (lib/server/sources/dagster): the Dagster+
 * token read from its named secret for each request and never kept, HTTP 200 with `data` and no
 * `errors` required, and every answer returned with its call as the audit log and the source's log
 * record it (method, URL, status, ids — never a header). With `check`, the data must match it or
 * the whole answer is refused, naming the first field that does not.
 */
export function dagsterTransport(connection: Pick<DagsterConnection, "baseUrl" | "credentials">) {
  const endpoint = `${connection.baseUrl}/graphql`;
  /** Request headers: the Dagster+ user token when the connection names one (read now, never kept). */
  async function headers(what: string): Promise<Record<string, string>> {
    if (!connection.credentials) return {};
    try {
      return { "Dagster-Cloud-Api-Token": await readSecret(connection.credentials) };
    } catch (e) {
      const message = (e as Error).message;
      throw new OrchestratorError(`${what}: ${message}`, { orchestrator: "dagster", method: "POST", url: endpoint, status: null, error: message });
    }
  }

  /** One GraphQL operation: HTTP 200 with `data` and no `errors`, else an OrchestratorError carrying the call. */
  async function graphql<T>(
    query: string,
    variables: Record<string, unknown>,
    what: string,
    options: { dryRun?: boolean; check?: ZodType<T> } = {},
  ): Promise<{ data: T; call: OrchestratorCall }> {
    const answer = expectStatus(
      withRaisedError(
        await requestJson<GraphQLAnswer<T>>("dagster", "POST", endpoint, {
          headers: await headers(what),
          body: { query, variables },
          ...(options.dryRun ? { dryRun: true } : {}),
        }),
      ),
      [200],
      what,
    );
    const body = answer.body;
    if (body && Array.isArray(body.errors) && body.errors.length > 0) {
      const error = errorText(body);
      throw new OrchestratorError(`${what}: Dagster answered ${error}`, { ...answer.call, error });
    }
    if (!body || typeof body !== "object" || !body.data)
      throw new OrchestratorError(`${what}: Dagster answered without data`, { ...answer.call, error: "no data" });
    if (!options.check) return { data: body.data, call: answer.call };
    const checked = options.check.safeParse(body.data);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const error = `the answer does not match what Reparo reads: data.${issue?.path.map(String).join(".") ?? ""}: ${issue?.message ?? "invalid"}`;
      throw new OrchestratorError(`${what}: ${error}`, { ...answer.call, error });
    }
    return { data: checked.data, call: answer.call };
  }

  return { endpoint, graphql };
}
