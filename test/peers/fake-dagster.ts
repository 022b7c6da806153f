import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { buildSchema, graphql, type GraphQLSchema } from "graphql";

/**
 * A Dagster webserver for tests (test support, not production): `POST /graphql`, executed by
 * graphql-js against the executable schema built from Dagster's own schema.graphql
 * (test/fixtures/peers/dagster), so parsing, validation and variable coercion are
 * graphql-js's: a field, argument or variable type Dagster does not have is an error, recorded
 * in `violations`. The resolvers below model the few fields Reparo's adapter uses:
 *
 *   Query.assetNodes(assetKeys)                  AssetNode { assetKey isPartitioned partitionKeys partitionKeysByDimension assetPartitionStatuses }
 *   Query.assetNodeOrError(assetKey)             AssetNode | AssetNotFoundError
 *   Query.assetNodeAdditionalRequiredKeys        the other assets of a non-subsettable multi-asset
 *   Query.partitionBackfillOrError(backfillId)   PartitionBackfill | BackfillNotFoundError — each read advances the backfill one step
 *   Mutation.launchPartitionBackfill             LaunchBackfillSuccess | PythonError (an unknown asset key or partition), HTTP 500
 *                                                | the member `refuseLaunches` names (a fault a test switches on)
 *   Mutation.cancelPartitionBackfill             CancelBackfillSuccess | BackfillNotFoundError… (PythonError)
 *
 * A backfill's partition gets one run of every selected asset (QUEUED, then STARTED, tagged
 * dagster/backfill and dagster/partition); its assets are materialized or failed (`outcome`) one
 * per read of the backfill, the run ending SUCCESS or FAILURE (`advance`). Calibrated against the
 * real Dagster 1.13 by test/peers/fake-dagster-calibration.test.ts.
 */

export interface FakeDagsterAsset {
  readonly path: string[];
  readonly partitionKeys: string[];
  /** Assets of one non-subsettable multi-asset are materialized together. */
  readonly multiAsset?: string;
}

export type PartitionState = "requested" | "in progress" | "materialized" | "failed" | "canceled";

export interface FakeBackfillItem {
  readonly asset: string[];
  readonly partition: string;
  state: PartitionState;
  runId?: string;
}

export interface FakeBackfill {
  readonly id: string;
  status: string;
  readonly partitionNames: string[];
  readonly assets: string[][];
  readonly title: string | null;
  readonly description: string | null;
  readonly fromFailure: boolean;
  readonly items: FakeBackfillItem[];
  /** Newest first, as Dagster lists a backfill's runs. */
  readonly runs: FakeRun[];
  readonly timestamp: number;
}

export interface FakeRun {
  readonly runId: string;
  status: "QUEUED" | "STARTED" | "SUCCESS" | "FAILURE" | "CANCELED";
  /** Every asset of the backfill's selection: Dagster runs a partition's assets in one run. */
  readonly assets: string[][];
  readonly partition: string;
  readonly backfillId: string;
}

export interface FakeDagsterRequest {
  readonly method: string;
  readonly path: string;
  readonly operationName: string | null;
  readonly query: string;
  readonly variables: Record<string, unknown>;
  /** Whether the Dagster-Cloud-Api-Token header was the required token (true when none is required). */
  readonly authorized: boolean;
  status: number;
}

export interface FakeDagsterOptions {
  readonly assets: FakeDagsterAsset[];
  /** Required `Dagster-Cloud-Api-Token` (401 without it); none: an open OSS webserver. */
  readonly token?: string;
  /** Whether a partition of an asset materializes or fails (default: materialized). */
  readonly outcome?: (asset: string[], partition: string) => "materialized" | "failed" | Promise<"materialized" | "failed">;
  /** Awaited when a partition of an asset has materialized. */
  readonly onMaterialized?: (asset: string[], partition: string, backfillId: string) => void | Promise<void>;
  /** Default: test/fixtures/peers/dagster/schema.graphql. */
  readonly schemaPath?: string;
}

export interface FakeDagster {
  readonly url: string;
  readonly assets: FakeDagsterAsset[];
  readonly backfills: FakeBackfill[];
  readonly requests: FakeDagsterRequest[];
  /** Everything the real webserver would have refused (GraphQL errors, bad HTTP), in its words. */
  readonly violations: string[];
  /**
   * A fault: every launchPartitionBackfill from now on answers this member of LaunchBackfillResult,
   * as Dagster does when it refuses (a user without the launch permission: UnauthorizedError; a
   * partition set gone since the dry run; its own code raising: PythonError). null: launches again.
   */
  refuseLaunches(member: RefusedLaunch | null): void;
  close(): Promise<void>;
}

const DEFAULT_SCHEMA = path.join(process.cwd(), "test/fixtures/peers/dagster/schema.graphql");

let schemaCache: { path: string; schema: GraphQLSchema } | null = null;
function dagsterSchema(file: string): GraphQLSchema {
  if (schemaCache?.path !== file) schemaCache = { path: file, schema: buildSchema(readFileSync(file, "utf8")) };
  return schemaCache.schema;
}

export type RefusedLaunch = "UnauthorizedError" | "PartitionSetNotFoundError" | "PythonError";

const keyOf = (p: readonly string[]) => JSON.stringify(p);
/** A Python list of strings as Python prints it (Dagster's error texts quote asset keys so). */
const pythonList = (p: readonly string[]) => `[${p.map((x) => `'${x}'`).join(", ")}]`;
const pythonError = (message: string, className: string) => ({
  __typename: "PythonError",
  message,
  className,
  stack: [],
  cause: null,
  causes: [],
  errorChain: [],
});

export async function startFakeDagster(options: FakeDagsterOptions): Promise<FakeDagster> {
  const schema = dagsterSchema(options.schemaPath ?? DEFAULT_SCHEMA);
  const assets = options.assets;
  const backfills: FakeBackfill[] = [];
  const requests: FakeDagsterRequest[] = [];
  const violations: string[] = [];
  let nextRun = 1;
  let refused: RefusedLaunch | null = null;
  /** What Dagster answers when it refuses a launch (its messages, as its GraphQL layer words them). */
  const refusal = (member: RefusedLaunch) =>
    member === "UnauthorizedError"
      ? { __typename: member, message: "Authorization failed: the user lacks the LAUNCH_PARTITION_BACKFILL permission" }
      : member === "PartitionSetNotFoundError"
        ? { __typename: member, message: "Partition set __ASSET_JOB_partition_set could not be found.", partitionSetName: "__ASSET_JOB_partition_set" }
        : pythonError("dagster._core.errors.DagsterUserCodeUnreachableError: Could not reach user code server", "DagsterUserCodeUnreachableError");

  const findAsset = (p: readonly string[]) => assets.find((a) => keyOf(a.path) === keyOf(p));

  /** AssetNode, as far as the adapter reads it. */
  const assetNode = (a: FakeDagsterAsset) => {
    const latest = (partition: string): PartitionState | null => {
      for (const b of [...backfills].reverse()) {
        const item = b.items.find((i) => keyOf(i.asset) === keyOf(a.path) && i.partition === partition);
        if (item) return item.state;
      }
      return null;
    };
    return {
      __typename: "AssetNode",
      id: keyOf(a.path),
      assetKey: { path: a.path },
      isPartitioned: a.partitionKeys.length > 0,
      partitionKeys: a.partitionKeys,
      partitionKeysByDimension: () => (a.partitionKeys.length > 0 ? [{ name: "default", partitionKeys: a.partitionKeys, type: "STATIC" }] : []),
      assetPartitionStatuses: () => {
        const states = a.partitionKeys.map((k) => [k, latest(k)] as const);
        return {
          __typename: "DefaultPartitionStatuses",
          materializedPartitions: states.filter(([, s]) => s === "materialized").map(([k]) => k),
          failedPartitions: states.filter(([, s]) => s === "failed").map(([k]) => k),
          materializingPartitions: states.filter(([, s]) => s === "in progress").map(([k]) => k),
          unmaterializedPartitions: states.filter(([, s]) => s === null || s === "requested" || s === "canceled").map(([k]) => k),
        };
      },
    };
  };

  /**
   * One step of each partition of the backfill, as the real daemon moves them (recorded in
   * test/fixtures/peers/dagster/adapter): one run per partition materializing every selected asset
   * (QUEUED, then STARTED), the assets one per step in selection order (the adapter lists them in
   * dependency order); an asset that fails fails the run and every asset after it in the run
   * (Dagster counts them failed without running them).
   */
  async function advance(b: FakeBackfill): Promise<void> {
    if (b.status !== "REQUESTED") return;
    for (const partition of b.partitionNames) {
      const items = b.items.filter((i) => i.partition === partition);
      const run = b.runs.find((r) => r.partition === partition);
      if (!run) {
        const created: FakeRun = { runId: `run-${String(nextRun++).padStart(4, "0")}`, status: "QUEUED", assets: b.assets, partition, backfillId: b.id };
        b.runs.unshift(created);
        for (const item of items) Object.assign(item, { state: "in progress", runId: created.runId });
      } else if (run.status === "QUEUED") {
        run.status = "STARTED";
      } else if (run.status === "STARTED") {
        const item = items.find((i) => i.state === "in progress");
        if (!item) continue;
        const outcome = (await options.outcome?.(item.asset, item.partition)) ?? "materialized";
        item.state = outcome;
        if (outcome === "materialized") await options.onMaterialized?.(item.asset, item.partition, b.id);
        else for (const rest of items) if (rest.state === "in progress") rest.state = "failed";
        if (items.every((i) => i.state === "materialized" || i.state === "failed")) run.status = items.some((i) => i.state === "failed") ? "FAILURE" : "SUCCESS";
      }
    }
    if (b.items.every((i) => i.state === "materialized" || i.state === "failed"))
      b.status = b.items.some((i) => i.state === "failed") ? "COMPLETED_FAILED" : "COMPLETED_SUCCESS";
  }

  /** PartitionBackfill, as far as the adapter reads it. */
  const backfillView = (b: FakeBackfill) => ({
    __typename: "PartitionBackfill",
    id: b.id,
    status: b.status,
    partitionNames: b.partitionNames,
    assetSelection: b.assets.map((p) => ({ path: p })),
    isAssetBackfill: true,
    fromFailure: b.fromFailure,
    numPartitions: b.partitionNames.length,
    timestamp: b.timestamp,
    title: b.title,
    description: b.description,
    partitionStatuses: null,
    assetBackfillData: {
      assetBackfillStatuses: b.assets.map((p) => {
        const items = b.items.filter((i) => keyOf(i.asset) === keyOf(p));
        return {
          __typename: "AssetPartitionsStatusCounts",
          assetKey: { path: p },
          numPartitionsTargeted: items.length,
          numPartitionsInProgress: items.filter((i) => i.state === "in progress").length,
          numPartitionsMaterialized: items.filter((i) => i.state === "materialized").length,
          numPartitionsFailed: items.filter((i) => i.state === "failed").length,
        };
      }),
      rootTargetedPartitions: { partitionKeys: b.partitionNames, ranges: null },
    },
    runs: ({ limit }: { limit?: number | null }) =>
      b.runs.slice(0, limit ?? undefined).map((r) => ({
        __typename: "Run",
        id: r.runId,
        runId: r.runId,
        status: r.status,
        tags: [
          { key: "dagster/backfill", value: r.backfillId },
          { key: "dagster/partition", value: r.partition },
        ],
        assetSelection: r.assets.map((p) => ({ path: p })),
      })),
  });

  const root = {
    assetNodes: ({ assetKeys }: { assetKeys?: { path: string[] }[] | null }) =>
      assets.filter((a) => !assetKeys || assetKeys.some((k) => keyOf(k.path) === keyOf(a.path))).map(assetNode),
    assetNodeOrError: ({ assetKey }: { assetKey: { path: string[] } }) => {
      const a = findAsset(assetKey.path);
      return a ? assetNode(a) : { __typename: "AssetNotFoundError", message: `Asset key ${assetKey.path.join("/")} not found.` };
    },
    assetNodeAdditionalRequiredKeys: ({ assetKeys }: { assetKeys: { path: string[] }[] }) => {
      const selected = new Set(assetKeys.map((k) => keyOf(k.path)));
      const groups = new Set(assets.filter((a) => selected.has(keyOf(a.path)) && a.multiAsset).map((a) => a.multiAsset));
      return assets.filter((a) => a.multiAsset && groups.has(a.multiAsset) && !selected.has(keyOf(a.path))).map((a) => ({ path: a.path }));
    },
    partitionBackfillOrError: async ({ backfillId }: { backfillId: string }) => {
      const b = backfills.find((x) => x.id === backfillId);
      if (!b) return { __typename: "BackfillNotFoundError", message: `Backfill ${backfillId} could not be found.`, backfillId };
      await advance(b);
      return backfillView(b);
    },
    launchPartitionBackfill: ({
      backfillParams: params,
    }: {
      backfillParams: {
        partitionNames?: string[] | null;
        assetSelection?: { path: string[] }[] | null;
        selector?: unknown;
        fromFailure?: boolean | null;
        title?: string | null;
        description?: string | null;
        allPartitions?: boolean | null;
      };
    }) => {
      if (refused) return refusal(refused);
      if (!params.assetSelection || params.assetSelection.length === 0) {
        return pythonError("Reparo's fake models asset backfills only: assetSelection is required", "DagsterInvariantViolationError");
      }
      if (!params.partitionNames || params.partitionNames.length === 0) {
        return pythonError("partitionNames or allPartitions is required for an asset backfill", "DagsterInvariantViolationError");
      }
      const unknown = params.assetSelection.filter((k) => !findAsset(k.path));
      // Dagster's asset graph raises on an unknown key; capture_error answers it as a PythonError.
      if (unknown.length > 0) return pythonError(`KeyError: AssetKey(${pythonList(unknown[0]!.path)})\n`, "KeyError");
      // Not PartitionKeysNotFoundError: Dagster 1.13's asset backfill fails an invariant on a key
      // outside the partitions definition (recorded: test/fixtures/peers/dagster/adapter).
      const invalid = params.assetSelection.some((k) => params.partitionNames!.some((p) => !findAsset(k.path)!.partitionKeys.includes(p)));
      if (invalid)
        return pythonError("dagster_shared.check.functions.CheckError: Invariant failed. Description: Multiple initial assets not yet supported\n", "CheckError");
      const id = Math.random().toString(36).slice(2, 10);
      const selection = params.assetSelection.map((k) => k.path);
      const b: FakeBackfill = {
        id,
        status: "REQUESTED",
        partitionNames: params.partitionNames,
        assets: selection,
        title: params.title ?? null,
        description: params.description ?? null,
        fromFailure: params.fromFailure ?? false,
        timestamp: Date.now() / 1000,
        runs: [],
        items: selection.flatMap((asset) => params.partitionNames!.map((partition) => ({ asset, partition, state: "requested" as PartitionState }))),
      };
      backfills.push(b);
      return { __typename: "LaunchBackfillSuccess", backfillId: id, launchedRunIds: null };
    },
    cancelPartitionBackfill: ({ backfillId }: { backfillId: string }) => {
      const b = backfills.find((x) => x.id === backfillId);
      if (!b) return pythonError(`Backfill ${backfillId} could not be found`, "DagsterInvariantViolationError");
      if (b.status === "REQUESTED") {
        b.status = "CANCELED";
        for (const item of b.items) if (item.state === "requested" || item.state === "in progress") item.state = "canceled";
        for (const r of b.runs) if (r.status === "QUEUED" || r.status === "STARTED") r.status = "CANCELED";
      }
      return { __typename: "CancelBackfillSuccess", backfillId };
    },
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", "http://fake");
    const header = req.headers["dagster-cloud-api-token"];
    const authorized = options.token === undefined || header === options.token;
    const entry: FakeDagsterRequest = { method: req.method ?? "", path: url.pathname, operationName: null, query: "", variables: {}, authorized, status: 0 };
    requests.push(entry);
    const answer = (status: number, body: unknown) => {
      entry.status = status;
      send(res, status, body);
    };
    if (url.pathname !== "/graphql" || req.method !== "POST") {
      violations.push(`${req.method} ${url.pathname}: the fake serves POST /graphql only`);
      return answer(404, { errors: [{ message: "Not Found" }] });
    }
    if (!authorized) return answer(401, { errors: [{ message: "Unauthorized: a valid Dagster-Cloud-Api-Token is required" }] });
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
    } catch {
      violations.push("the body is not JSON");
      return answer(400, { errors: [{ message: "POST body sent invalid JSON." }] });
    }
    if (typeof body.query !== "string") {
      violations.push("the body has no `query` string");
      return answer(400, { errors: [{ message: "Must provide query string." }] });
    }
    const variables = body.variables && typeof body.variables === "object" ? (body.variables as Record<string, unknown>) : {};
    Object.assign(entry, {
      query: body.query,
      variables,
      operationName: typeof body.operationName === "string" ? body.operationName : (/^\s*(?:query|mutation)\s+(\w+)/.exec(body.query)?.[1] ?? null),
    });
    const result = await graphql({
      schema,
      source: body.query,
      rootValue: root,
      variableValues: variables,
      operationName: typeof body.operationName === "string" ? body.operationName : undefined,
    });
    if (result.errors && result.errors.length > 0) {
      for (const e of result.errors) violations.push(`${entry.operationName ?? "operation"}: ${e.message}`);
      // A request that does not validate never executes: Dagster's webserver answers 400, data null.
      return answer(result.data === undefined ? 400 : 200, {
        data: result.data ?? null,
        errors: result.errors.map((e) => ({ message: e.message, locations: e.locations, path: e.path })),
      });
    }
    // A PythonError member (an exception Dagster caught) comes with HTTP 500, the data still in the body.
    const raised = Object.values(result.data ?? {}).some((v) => (v as { __typename?: string } | null)?.__typename === "PythonError");
    return answer(raised ? 500 : 200, { data: result.data });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      violations.push(`the fake failed: ${(e as Error).message}`);
      if (!res.headersSent) send(res, 500, { errors: [{ message: (e as Error).message }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    assets,
    backfills,
    requests,
    violations,
    refuseLaunches: (member) => {
      refused = member;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
