import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { statusOfError } from "../http/route";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { getIncident } from "../incidents/get-incident";
import { launchRepair } from "./launch-repair";
import { strandedRepairs } from "./repair-watchdog";
import { runRepairSlice, runRepairToEnd } from "./run-repair-slice";
import { localTaskCode as taskCodeFor, type TaskCode } from "../orchestrators/local";
import { cancelRepair } from "./cancel-repair";
import { validateIncident } from "./validate-incident";
import { cleanUnit } from "./clean-unit";
import { confirmPlan } from "./confirm-plan";
import { failingOnlyOnTheDuplicatedChain, OPERATOR, plannedIncident, STG } from "./testing/journey-steps";

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
  const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as Error] : []));
  return { accepted, refused };
}

describe.each(providersUnderTest())("repair reliability (%s)", (provider) => {
  let t: TestDatabase;
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
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
      expect(statusOfError(e)).toBe(409);
      expect(e.message).toContain(`repair #${run.repairNumber} (run ${runId}`);
      expect(e.message).toMatch(/already being repaired|already launched/);
    }
    expect(await accepted[0]!.value.execution).toBe("succeeded");
    expect(await t.db.run.count({ where: { kind: "repair", incidentId: id } })).toBe(1);
    expect(failingOnlyOnTheDuplicatedChain(await validateIncident(id, new Date(), t.db))).toEqual([]);
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });

  it("the console running a repair killed mid-repair: another takes it over from its exact progress; nothing published twice", async () => {
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
    const doneBefore = await t.db.attempt.count({ where: { runId, status: "succeeded" } });
    expect(doneBefore).toBeGreaterThanOrEqual(5);
    expect(doneBefore).toBeLessThan(19);
    // This process is the other console: its watchdog finds the run (its owner's pid is gone) …
    expect(await strandedRepairs(t.db)).toEqual([runId]);
    // … and its repair-run worker continues the SAME run from where it stopped.
    const status = await runRepairToEnd(runId, t.db);
    expect(await strandedRepairs(t.db)).toEqual([]);
    const takeover = (await getIncident(id, t.db)).timeline.find((e) => e.kind === "repair.taken_over");
    expect(takeover).toMatchObject({ after: { done: doneBefore, remaining: 19 - doneBefore } });
    expect(await t.db.attempt.count({ where: { runId, status: { in: ["running", "queued"] } } })).toBe(0);
    expect(await t.db.repairClaim.count()).toBe(0);
    // Nothing published twice: one publish per unit, and each publish's rows are in the warehouse.
    const publishes = await t.db.publish.groupBy({ by: ["datasetId", "unitKey"], where: { runId }, _count: { _all: true } });
    expect(publishes.every((p) => p._count._all === 1)).toBe(true);
    for (const p of await t.db.publish.findMany({ where: { runId } })) {
      expect(await t.db.warehouseRow.count({ where: { datasetId: p.datasetId, unitKey: p.unitKey } })).toBe(p.rowCount);
    }
    // An append the killed attempt left half-written is not run again by the takeover (a second
    // copy would follow): it fails saying so, what reads it is blocked, the run ends partial.
    const halfWritten = (await t.db.attempt.findMany({ where: { runId, task: { nodeId: STG } }, include: { task: true } })).filter((a) =>
      /appended \d+ rows/.test(a.error ?? ""),
    );
    if (halfWritten.length === 0) {
      expect(status).toBe("succeeded");
      expect(publishes).toHaveLength(19);
    } else {
      expect(status).toBe("partial");
      for (const a of halfWritten)
        await cleanUnit(id, { taskNodeId: STG, unitKey: a.unitKey, reason: "remove what the killed attempt appended" }, OPERATOR, new Date(), t.db);
      // The plan is confirmed again and resumed: it runs only what is not done.
      await confirmPlan(
        id,
        { strategy: "targeted_with_closure", replay: [], parameterOverrides: {}, reason: "resume after cleaning what the killed attempt appended" },
        OPERATOR,
        new Date(),
        t.db,
      );
      const resumed = await launchRepair(id, { resume: true, concurrency: 4 }, OPERATOR, new Date(), t.db);
      expect(await resumed.execution).toBe("succeeded");
    }
    const runs = (await t.db.run.findMany({ where: { incidentId: id, kind: "repair" } })).map((r) => r.id);
    const all = await t.db.publish.groupBy({ by: ["datasetId", "unitKey"], where: { runId: { in: runs } }, _count: { _all: true } });
    expect(all).toHaveLength(19);
    expect(all.every((p) => p._count._all === 1)).toBe(true);
    expect(failingOnlyOnTheDuplicatedChain(await validateIncident(id, new Date(), t.db))).toEqual([]);
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  }, 120_000);

  it("a second slice of a run a live slice still runs (a job retried while its first execution goes on) runs nothing: busy", async () => {
    const id = await plannedIncident(t.db);
    // The third pair's code asks for a second slice of the same run while this one is live.
    let runId = "";
    let calls = 0;
    let second: Promise<unknown> | null = null;
    const watched = (nodeId: string): TaskCode => {
      const code = taskCodeFor(nodeId);
      return {
        ...code,
        run: (ctx) => {
          if (++calls === 3) second = runRepairSlice(runId, t.db);
          return code.run(ctx);
        },
      };
    };
    const launched = await launchRepair(id, { resume: false, concurrency: 1, run: { taskCode: watched } }, OPERATOR, new Date(), t.db);
    runId = launched.runId;
    expect(await launched.execution).toBe("succeeded");
    expect(await second).toEqual({ state: "busy" });
    const attempts = await t.db.attempt.groupBy({ by: ["taskId", "unitKey"], where: { runId: launched.runId }, _count: { _all: true } });
    expect(attempts.every((a) => a._count._all === 1)).toBe(true);
    expect(await runRepairSlice(launched.runId, t.db)).toEqual({ state: "gone" });
    const kinds = (await getIncident(id, t.db)).timeline.map((e) => e.kind);
    expect(kinds.filter((k) => k === "repair.finished")).toHaveLength(1);
    expect(kinds).not.toContain("repair.taken_over");
  }, 60_000);

  it("cancelled while its slice runs a pair: that pair finishes, nothing more starts, the run ends cancelled by the operator", async () => {
    const id = await plannedIncident(t.db);
    let cancelled: Promise<Awaited<ReturnType<typeof cancelRepair>>> | null = null;
    let calls = 0;
    const watched = (nodeId: string): TaskCode => {
      const code = taskCodeFor(nodeId);
      return {
        ...code,
        run: (ctx) => {
          // The operator cancels while the third pair runs: the live slice is told and stops the run itself.
          if (++calls === 3) cancelled = cancelRepair(id, { reason: "wrong plan" }, OPERATOR, t.db);
          return code.run(ctx);
        },
      };
    };
    const launched = await launchRepair(id, { resume: false, concurrency: 1, run: { taskCode: watched } }, OPERATOR, new Date(), t.db);
    expect(await launched.execution).toBe("cancelled");
    expect(await cancelled).toMatchObject({ ok: true, status: "cancelled" });
    // The pair running when it was asked finished (and one the slice had begun before the request was recorded); the other 15+ never started.
    const attempts = await t.db.attempt.findMany({ where: { runId: launched.runId } });
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.length).toBeLessThanOrEqual(4);
    expect(attempts.every((a) => a.status === "succeeded")).toBe(true);
    expect(await t.db.repairClaim.count({ where: { runId: launched.runId } })).toBe(0);
    const incident = await getIncident(id, t.db);
    expect(incident.status).toBe("validating");
    expect(incident.timeline.at(-1)).toMatchObject({
      kind: "repair.finished",
      actor: OPERATOR.id,
      after: { runStatus: "cancelled", succeeded: attempts.length },
    });
    // Past the run's end and its last record, no pair started after all.
    expect(await t.db.attempt.count({ where: { runId: launched.runId } })).toBe(attempts.length);
  }, 60_000);

  it.runIf(provider === "postgresql")(
    "50 launches spread over two console processes sharing one PostgreSQL database: exactly 1 accepted",
    async () => {
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
      const messages = [...refused.map((e) => `${statusOfError(e)} ${e.message}`), ...theirs.messages];
      expect(messages.filter((m) => !(m.startsWith("409 ") && /(already being repaired by|already launched as) repair #\d+ \(run /.test(m)))).toEqual([]);
      expect(await t.db.run.count({ where: { kind: "repair", incidentId: id } })).toBe(1);
    },
    120_000,
  );
});
