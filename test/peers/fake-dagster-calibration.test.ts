import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backfillProgress, type BackfillOrError } from "@/lib/server/orchestrators/dagster-requests";
import type { DispatchPlan, TaskFacts } from "@/lib/server/orchestrators/port";
import { startFakeDagster, type FakeDagster } from "./fake-dagster";

/**
 * The fake Dagster calibrated against the real Dagster 1.13: the requests Reparo's own adapter
 * sent to the peers lab, with the real answers (recorded by `bash peers/lab.sh record-adapter
 * dagster`, peers/record-dagster-exchanges.ts → test/fixtures/peers/dagster/adapter/NN-<what>.json),
 * are sent again to the fake, and its answers compared with the real ones (CONVENTIONS.md, 21).
 *
 * The recorded repair: one backfill of stg_orders and fct_orders × 2026-08-29 and 08-30, the lab's
 * control row failing stg_orders on 08-30. Compared: each answer's status; the fields the adapter
 * reads, by value, or by JSON type where two servers differ by nature (ids Dagster mints, the text
 * of a GraphQL validation error from graphene vs graphql-js); and the backfill's behaviour — which
 * runs it makes for which partitions and assets, the statuses its runs go through, its own status
 * reaching completed, and what the adapter makes of every poll, pair by pair.
 */

const DIR = path.join(process.cwd(), "test/fixtures/peers/dagster/adapter");

interface Exchange {
  file: string;
  what: string;
  request: { method: string; path: string; body: { query: string; variables: Record<string, unknown> } };
  response: { status: number; body: unknown };
}

const EXCHANGES: Exchange[] = readdirSync(DIR)
  .filter((f) => /^\d\d-.*\.json$/.test(f))
  .sort()
  .map((file) => ({ file, ...(JSON.parse(readFileSync(path.join(DIR, file), "utf8")) as Omit<Exchange, "file">) }));
const only = (what: string) => EXCHANGES.filter((e) => e.what === what);

/** The lab's control row during the recording (peers/lab.sh record-adapter). */
const FAILS = new Set(['["stg_orders"] 2026-08-30']);

/** The recorded launch's assets × partitions: the pairs the adapter reads from each poll (backfillProgress). */
const LAUNCHED = only("launch")[0]!.request.body.variables.backfillParams as { partitionNames: string[]; assetSelection: { path: string[] }[] };
const TASKS: TaskFacts[] = LAUNCHED.assetSelection.map(({ path: p }) => ({ taskNodeId: p.join("/"), name: p.join("/"), namespace: "dagster-lab", pipeline: "lab_orders", sideEffect: "none", writeMode: "overwrite" }));
const PLANNED = TASKS.flatMap((t) => LAUNCHED.partitionNames.map((d): [string, string] => [t.taskNodeId, d]));
const PLAN = { tasks: new Map(TASKS.map((t) => [t.taskNodeId, t])) } as unknown as DispatchPlan;

type Json = Record<string, unknown>;
const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Every path of an answer with its JSON type ("a.b[].c: string"): what the fields are, not their values. */
function shape(v: unknown, at = "", out = new Set<string>()): Set<string> {
  out.add(`${at}: ${kind(v)}`);
  if (Array.isArray(v)) for (const x of v) shape(x, `${at}[]`, out);
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) shape(x, `${at}.${k}`, out);
  return out;
}

const backfillOf = (body: unknown) => (body as { data: { partitionBackfillOrError: BackfillOrError } }).data.partitionBackfillOrError;

/** What a finished backfill did: its status, per asset its counts, per run its partition, assets and status. */
function outcome(b: BackfillOrError) {
  return {
    status: b.status,
    counts: (b.assetBackfillData?.assetBackfillStatuses ?? []).map((s) => ({ ...s })),
    runs: (b.runs ?? [])
      // A run's assetSelection comes in no fixed order (two recordings differ): compared as a set.
      .map((r) => ({ partition: r.tags.find((t) => t.key === "dagster/partition")?.value, assets: (r.assetSelection ?? []).map((a) => a.path.join("/")).sort(), status: r.status }))
      .sort((a, b) => String(a.partition).localeCompare(String(b.partition))),
  };
}

/** Consecutive repeats removed. */
const collapse = <T,>(xs: readonly T[]) => xs.filter((x, i) => i === 0 || JSON.stringify(x) !== JSON.stringify(xs[i - 1]));
const isSubsequence = (xs: readonly string[], of: readonly string[]) => {
  let i = 0;
  for (const x of of) if (x === xs[i]) i++;
  return i === xs.length;
};

/** Per partition, the statuses its run went through across the polls. */
function runStatuses(polls: readonly BackfillOrError[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const b of polls)
    for (const r of b.runs ?? []) (out[r.tags.find((t) => t.key === "dagster/partition")?.value ?? "?"] ??= []).push(r.status);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, collapse(v)]));
}

/** Per planned pair, the statuses the adapter read from the polls (backfillProgress). */
function pairStatuses(polls: readonly BackfillOrError[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const b of polls) for (const p of backfillProgress(PLAN, {}, b.id ?? "", PLANNED, b)) (out[`${p.taskNodeId} ${p.unitKey}`] ??= []).push(p.status);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, collapse(v)]));
}

/** An answer other than a poll, as compared: by value, the ids Dagster mints and error texts of a validator by type. */
function view(e: { what: string; status: number; body: unknown }): unknown {
  const data = (e.body as { data?: Json | null }).data;
  switch (e.what) {
    case "preview":
    case "preview-with-a-token": {
      const d = data as { assetNodes: { assetKey: { path: string[] } }[] } & Json;
      return { status: e.status, ...d, assetNodes: [...d.assetNodes].sort((a, b) => a.assetKey.path.join("/").localeCompare(b.assetKey.path.join("/"))) };
    }
    case "launch":
    case "cancel-finished": {
      const member = Object.values(data!)[0] as Json;
      return { status: e.status, ...member, backfillId: kind(member.backfillId) };
    }
    case "bad-request":
      return { status: e.status, shape: [...shape(e.body)].sort() };
    default: // the refusals: Dagster's own words
      return { status: e.status, data };
  }
}

let fake: FakeDagster | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("the fake Dagster against the real Dagster 1.13's answers to Reparo's adapter", { timeout: 30_000 }, () => {
  it("answers every request as the real Dagster did, and runs the backfill as its daemon did", async () => {
    const preview = only("preview")[0]!;
    const nodes = (preview.response.body as { data: { assetNodes: { assetKey: { path: string[] }; partitionKeys: string[] }[] } }).data.assetNodes;
    const f = (fake = await startFakeDagster({
      assets: nodes.map((n) => ({ path: n.assetKey.path, partitionKeys: n.partitionKeys })),
      outcome: (asset, partition) => (FAILS.has(`${JSON.stringify(asset)} ${partition}`) ? "failed" : "materialized"),
    }));
    const send = async (body: unknown) => {
      const res = await fetch(`${f.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as unknown };
    };

    const real: Record<string, unknown> = {};
    const answered: Record<string, unknown> = {};
    const realPolls: BackfillOrError[] = [];
    const fakePolls: BackfillOrError[] = [];
    const ids = new Map<string, string>();
    for (const e of EXCHANGES) {
      const variables = { ...e.request.body.variables };
      if (typeof variables.backfillId === "string") variables.backfillId = ids.get(variables.backfillId) ?? variables.backfillId;
      if (e.what === "poll") {
        // The daemon moves on its own clock, the fake one step per read: the polls are compared as a whole below.
        realPolls.push(backfillOf(e.response.body));
        expect(e.response.status, e.file).toBe(200);
        if (fakePolls.length > 0) continue;
        for (let read = 0; read < 20; read++) {
          const a = await send({ ...e.request.body, variables });
          expect(a.status).toBe(200);
          fakePolls.push(backfillOf(a.body));
          if (fakePolls.at(-1)!.status !== "REQUESTED") break;
        }
        continue;
      }
      const a = await send({ ...e.request.body, variables });
      if (e.what === "launch") {
        const realId = (e.response.body as { data: { launchPartitionBackfill: { backfillId: string } } }).data.launchPartitionBackfill.backfillId;
        ids.set(realId, (a.body as { data: { launchPartitionBackfill: { backfillId: string } } }).data.launchPartitionBackfill.backfillId);
      }
      real[e.file] = view({ what: e.what, ...e.response });
      answered[e.file] = view({ what: e.what, ...a });
    }

    expect(answered).toEqual(real);
    // Every field of every poll answer, with its JSON type, is one the real answers have, and back.
    const shapes = (polls: BackfillOrError[]) => [...new Set(polls.flatMap((b) => [...shape(b)]))].sort();
    expect(shapes(fakePolls)).toEqual(shapes(realPolls));
    // The behaviour: what the backfill ran and how it ended, the run statuses (the fake skips some
    // of Dagster's, never adds or reorders one), the adapter's reading of each pair poll by poll.
    expect(outcome(fakePolls.at(-1)!)).toEqual(outcome(realPolls.at(-1)!));
    expect(collapse(fakePolls.map((b) => b.status))).toEqual(collapse(realPolls.map((b) => b.status)));
    const realRuns = runStatuses(realPolls);
    const fakeRuns = runStatuses(fakePolls);
    expect(Object.keys(fakeRuns).sort()).toEqual(Object.keys(realRuns).sort());
    for (const [partition, statuses] of Object.entries(fakeRuns)) expect(isSubsequence(statuses, realRuns[partition]!), `${partition}: ${statuses} within ${realRuns[partition]}`).toBe(true);
    expect(pairStatuses(fakePolls)).toEqual(pairStatuses(realPolls));
    expect(f.violations.filter((v) => !v.includes("ReparoBadRequest"))).toEqual([]);
  });

  it("the recording holds the repair and every refusal the replay compares", () => {
    expect(EXCHANGES.map((e) => e.what).filter((w, i, all) => all.indexOf(w) === i)).toEqual([
      "preview",
      "launch",
      "poll",
      "cancel-finished",
      "launch-unknown-partition",
      "launch-unknown-asset",
      "poll-unknown-backfill",
      "preview-with-a-token",
      "bad-request",
    ]);
    const last = backfillOf(only("poll").at(-1)!.response.body);
    expect(last.status).toBe("COMPLETED_FAILED");
    expect(JSON.stringify(EXCHANGES)).not.toContain("not-a-dagster-plus-token");
  });
});
