import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { loadDemo } from "../demo/load-demo";
import { HttpError } from "../http/errors";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { getIncident } from "../incidents/get-incident";
import { launchRepair } from "./launch-repair";
import { recoverInterruptedRepairs } from "./recover-interrupted-repairs";
import { validateIncident } from "./validate-incident";
import { cleanUnit } from "./clean-unit";
import { OPERATOR, plannedIncident, STG } from "./testing/journey-steps";

const ROOT = path.resolve(__dirname, "../../..");
const CHILD = path.join(__dirname, "testing/launch-in-child.ts");

function child(url: string, args: string[]): { proc: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } {
  const proc = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url } });
  proc.stderr.on("data", (d) => process.stderr.write(d));
  return { proc, lines: readline.createInterface({ input: proc.stdout })[Symbol.asyncIterator]() };
}

async function launchRace(id: string, n: number) {
  const outcomes = await Promise.allSettled(Array.from({ length: n }, () => launchRepair(id, { resume: false, concurrency: 4 }, OPERATOR)));
  const accepted = outcomes.filter((o): o is PromiseFulfilledResult<Awaited<ReturnType<typeof launchRepair>>> => o.status === "fulfilled");
  const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as HttpError] : []));
  return { accepted, refused };
}

describe.each(providersUnderTest())("repair reliability (%s)", (provider) => {
  let t: TestDatabase;
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
    await loadDemo(t.db);
  }, 180_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t?.drop();
  });

  it("50 concurrent launches of the same repair: exactly 1 accepted, 49 refused with 409 naming the running repair", async () => {
    const id = await plannedIncident(t.db);
    const { accepted, refused } = await launchRace(id, 50);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(49);
    const runId = accepted[0]!.value.runId;
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    for (const e of refused) {
      expect(e.status).toBe(409);
      expect(e.message).toContain(`repair #${run.repairNumber} (run ${runId}`);
      expect(e.message).toMatch(/already being repaired|already launched/);
    }
    expect(await accepted[0]!.value.execution).toBe("succeeded");
    expect(await t.db.run.count({ where: { kind: "repair", incidentId: id } })).toBe(1);
    expect((await validateIncident(id, new Date(), t.db)).passed).toBe(true);
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });

  it("the server killed mid-repair: marked interrupted with its exact progress; resume runs only the rest; nothing published twice", async () => {
    const id = await plannedIncident(t.db);
    const c = child(t.target.url, ["slow", id, "0"]);
    expect((await c.lines.next()).value).toBe("ready");
    c.proc.stdin.write("go\n");
    const { runId } = JSON.parse((await c.lines.next()).value as string) as { runId: string };
    for (let i = 0; i < 600; i++) {
      if ((await t.db.attempt.count({ where: { runId, status: "succeeded" } })) >= 5) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    c.proc.kill("SIGKILL");
    await new Promise((r) => c.proc.once("exit", r));
    // The console restarts: its startup hook finds the run with no live owner.
    expect(await recoverInterruptedRepairs(t.db)).toEqual([runId]);
    const done = await t.db.attempt.count({ where: { runId, status: "succeeded" } });
    expect(done).toBeGreaterThanOrEqual(5);
    expect(done).toBeLessThan(19);
    expect(await t.db.run.findUnique({ where: { id: runId } })).toMatchObject({ status: "interrupted" });
    expect(await t.db.attempt.count({ where: { runId, status: { in: ["running", "queued"] } } })).toBe(0);
    expect(await t.db.repairClaim.count()).toBe(0);
    const incident = await getIncident(id, t.db);
    expect(incident.status).toBe("planned");
    expect(incident.timeline.at(-1)).toMatchObject({ kind: "repair.interrupted", after: { runStatus: "interrupted", done, remaining: 19 - done } });
    // The ledger never claims a unit that was not written: each publish's rows are in the warehouse.
    for (const p of await t.db.publish.findMany({ where: { runId } })) {
      expect(await t.db.warehouseRow.count({ where: { datasetId: p.datasetId, unitKey: p.unitKey } })).toBe(p.rowCount);
    }
    // A partial append left by the killed attempt must be cleaned again before resuming.
    const stgLeft = await t.db.attempt.findMany({ where: { runId, status: "failed", task: { nodeId: STG } } });
    for (const a of stgLeft) await cleanUnit(id, { taskNodeId: STG, unitKey: a.unitKey, reason: "remove what the killed attempt appended" }, OPERATOR, new Date(), t.db);
    const killed = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    const resumed = await launchRepair(id, { resume: true, concurrency: 4 }, OPERATOR, new Date(), t.db);
    expect(resumed).toMatchObject({ repairNumber: killed.repairNumber + 1, pairs: 19 - done });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: resumed.runId } })).toMatchObject({ parentRunId: runId, rootRunId: killed.rootRunId });
    expect(await resumed.execution).toBe("succeeded");
    const runs = (await t.db.run.findMany({ where: { incidentId: id, kind: "repair" } })).map((r) => r.id);
    const publishes = await t.db.publish.groupBy({ by: ["datasetId", "unitKey"], where: { runId: { in: runs } }, _count: { _all: true } });
    expect(publishes).toHaveLength(19);
    expect(publishes.every((p) => p._count._all === 1)).toBe(true);
    expect((await validateIncident(id, new Date(), t.db)).passed).toBe(true);
  }, 120_000);

  it.runIf(provider === "postgresql")("50 launches spread over two console processes sharing one PostgreSQL database: exactly 1 accepted", async () => {
    const id = await plannedIncident(t.db);
    const c = child(t.target.url, ["race", id, "25"]);
    expect((await c.lines.next()).value).toBe("ready");
    c.proc.stdin.write("go\n");
    const mine = launchRace(id, 25);
    const theirs = JSON.parse((await c.lines.next()).value as string) as { accepted: number; messages: string[] };
    const { accepted, refused } = await mine;
    for (const a of accepted) await a.value.execution;
    expect(accepted.length + theirs.accepted).toBe(1);
    expect(refused.length + theirs.messages.length).toBe(49);
    const messages = [...refused.map((e) => `${e.status} ${e.message}`), ...theirs.messages];
    expect(messages.filter((m) => !(m.startsWith("409 ") && /(already being repaired by|already launched as) repair #\d+ \(run /.test(m)))).toEqual([]);
    expect(await t.db.run.count({ where: { kind: "repair", incidentId: id } })).toBe(1);
  }, 120_000);
});
