// Test helper run as a SECOND console process (npx tsx): connects to DATABASE_URL, prints
// "ready", waits for "go" on stdin, then either fires N concurrent launches of one incident
// (mode "race"), launches it with slow task code and runs it until killed (mode "slow"), or
// becomes a pg-boss worker of the repair-run queue with slow task code and launches the repair
// through the queue (mode "queue-slow"), as a console server does.
import { statusOfError } from "../../http/route";
import readline from "node:readline";
import { createDb } from "../../db/client";
import { resolveDatabaseTarget } from "../../db/database-url";
import type { TaskCode } from "../../orchestrators/local";
import { localTaskCode as taskCodeFor } from "../../orchestrators/local";
import { queueSpecs, setRunningJobQueue } from "../../jobs/job-queue";
import { PgBossQueue } from "../../jobs/pg-boss-queue";
import { launchRepair } from "../launch-repair";
import { runRepairSlice } from "../run-repair-slice";

const [mode, incidentId, n] = process.argv.slice(2) as ["race" | "slow" | "queue-slow", string, string];
const db = createDb(resolveDatabaseTarget());
const actor = { id: `child-${process.pid}`, role: "operator" as const, source: "demo" as const, namespaces: [] };

const slow = (id: string): TaskCode => {
  const code = taskCodeFor(id);
  return {
    ...code,
    run: (ctx) => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
      return code.run(ctx);
    },
  };
};

async function main() {
  await db.task.count(); // connect before the barrier
  console.log("ready");
  await new Promise<void>((resolve) => readline.createInterface({ input: process.stdin }).once("line", () => resolve()));
  if (mode === "race") {
    const outcomes = await Promise.allSettled(Array.from({ length: Number(n) }, () => launchRepair(incidentId, { resume: false, concurrency: 4 }, actor)));
    const accepted = outcomes.filter((o) => o.status === "fulfilled");
    const messages = outcomes.flatMap((o) => (o.status === "rejected" ? [`${statusOfError(o.reason)} ${(o.reason as Error).message}`] : []));
    for (const o of accepted) await (o as PromiseFulfilledResult<Awaited<ReturnType<typeof launchRepair>>>).value.execution;
    console.log(JSON.stringify({ accepted: accepted.length, messages }));
  } else if (mode === "queue-slow") {
    const queue = new PgBossQueue(resolveDatabaseTarget().url, { maintenanceIntervalSeconds: 2 });
    await queue.start(
      queueSpecs().filter((q) => q.name === "repair-run"),
      {
        "repair-run": async (data) => {
          const runId = String(data.runId);
          if ((await runRepairSlice(runId, db, { taskCode: slow })).state === "continue") await queue.send("repair-run", { runId }, { key: runId });
        },
      },
    );
    setRunningJobQueue(queue);
    const launched = await launchRepair(incidentId, { resume: false, concurrency: 2 }, actor, new Date(), db);
    console.log(JSON.stringify({ runId: launched.runId }));
    await new Promise(() => undefined); // works until killed
  } else {
    const launched = await launchRepair(incidentId, { resume: false, concurrency: 2, run: { taskCode: slow } }, actor);
    console.log(JSON.stringify({ runId: launched.runId }));
    await launched.execution;
  }
  await db.$disconnect();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
