import crypto from "node:crypto";
import { compositeKey } from "@/lib/domain/composite-key";
import type { AirflowConnection } from "@/lib/contracts/orchestrators";
import { compareDryRun, mappedKey, pairProgress, pausedPairs, pausedReason, tiKey } from "./airflow-answers";
import {
  airflowRequests,
  airflowTaskOf,
  clearAgainGroup,
  clearBody,
  clearGroups,
  clearPath,
  dagPath,
  listClearedBody,
  listEndedRunsBody,
  listStillToRunBody,
  LIST_DAG_RUNS,
  LIST_TASK_INSTANCES,
  markFailed,
  PAGE,
  type ClearGroup,
  type TaskInstance,
  type TaskInstanceCollection,
} from "./airflow-requests";
import type { Orchestrator, OrchestratorCall } from "./port";
import { OrchestratorError } from "./port";
import { readSecret } from "./secrets";
import { peerTransport, type Exchange, type PeerAuth } from "./transport";
import type { JsonAnswer } from "./http";

/**
 * Airflow 3: the requests are airflow-requests.ts (pure, from the plan's ranges), the answers are
 * read by airflow-answers.ts, and they travel through the one transport. The preview is Airflow's
 * own dry run of the same clears, compared task instance by task instance with the plan. Progress
 * comes from the task instances: a cleared one counts once it ran again (its try number passed the
 * one it had when cleared).
 *
 * Auth: every /api/v2 call carries a Bearer JWT — the configured token, or one the auth
 * manager's `POST /auth/token` issued for `username` (fetched again when Airflow answers 401).
 */

/** Kept with the run between slices: what was cleared, and each cleared instance's try number then. */
interface AirflowHandle {
  dispatchedAt: string;
  groups: ClearGroup[];
  cleared: Record<string, number>;
}

/**
 * How long after a wave's clears a cleared task instance may still be unscheduled before its DAG
 * run is looked at. Seen on Airflow 3.3.2 (peers lab): a clear that lands while the scheduler is
 * marking the same DAG run failed (the previous wave's task just finished, the rest of the run is
 * upstream_failed) resets the task instance but leaves the run `failed` — and Airflow never
 * schedules a task instance of an ended run, so the pair would wait for ever.
 */
const UNSCHEDULED_GRACE_MS = 10_000;

/**
 * The JWTs Airflow issued, kept across adapter instances: a repair's slices (every 3 s) each build
 * their adapter, and signing in again for each one sent a POST /auth/token per poll to the real
 * Airflow (each a password check there, each an audited call here). A token is used until Airflow
 * answers 401. Keyed by the API server, the user and a digest of the password, so a changed
 * password (the secret file rewritten) signs in again; the password itself is not kept.
 */
const issuedTokens = new Map<string, string>();
const MAX_CACHED_TOKENS = 100;
const tokenKey = (base: string, username: string, password: string) => `${base}\n${username}\n${crypto.createHash("sha256").update(password).digest("hex")}`;

/** The configured token, or a JWT the auth manager issued for `username` (signing in again when renewing). */
function airflowAuth(connection: AirflowConnection): PeerAuth {
  const username = connection.username;
  return {
    renewsOn401: !!username,
    ...(username ? { user: username } : {}),
    async headers(exchange: Exchange, _request, renew) {
      if (!username) return { authorization: `Bearer ${await readSecret(connection.credentials)}` };
      const password = await readSecret(connection.credentials);
      const key = tokenKey(connection.baseUrl, username, password);
      const cached = issuedTokens.get(key);
      if (cached && !renew) return { authorization: `Bearer ${cached}` };
      issuedTokens.delete(key);
      const answer = await exchange.send<{ access_token?: string }>({
        method: "POST",
        path: "/auth/token",
        body: { username, password },
        anonymous: true,
        signInAs: username,
        expect: [200, 201],
        what: `signing in to Airflow as ${username}`,
      });
      if (!answer.body?.access_token) throw new OrchestratorError("Airflow's /auth/token answered without an access_token", answer.call);
      if (issuedTokens.size >= MAX_CACHED_TOKENS) issuedTokens.delete(issuedTokens.keys().next().value!);
      issuedTokens.set(key, answer.body.access_token);
      return { authorization: `Bearer ${answer.body.access_token}` };
    },
  };
}

const clearedIds = (tis: readonly TaskInstance[]) => tis.map((ti) => `${ti.task_id}@${ti.logical_date ?? ti.dag_run_id}`);

export function airflowOrchestrator(connection: AirflowConnection): Orchestrator {
  const airflow = peerTransport("airflow", connection.baseUrl, airflowAuth(connection));

  /** Every page of a list call (Airflow caps a page at PAGE). */
  async function everyPage<T extends { total_entries: number }>(
    exchange: Exchange,
    path: string,
    body: (offset: number) => unknown,
    what: string,
  ): Promise<T[]> {
    const pages: T[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const answer = await exchange.send<T>({ method: "POST", path, body: body(offset), expect: [200], what });
      pages.push(answer.body);
      if (offset + PAGE >= answer.body.total_entries) return pages;
    }
  }

  /**
   * Cleared task instances that did not run again and are still unscheduled (state none) in a DAG
   * run that has ended: Airflow will not schedule them (see UNSCHEDULED_GRACE_MS). The ended runs
   * among theirs are listed (one list per DAG) and their instances cleared again, which queues
   * the run. Returns the instances cleared again (mappedKey).
   */
  async function clearAgainInEndedRuns(exchange: Exchange, tis: TaskInstance[], ranAgain: (ti: TaskInstance) => boolean): Promise<Set<string>> {
    const byDag = new Map<string, TaskInstance[]>();
    for (const ti of tis) {
      if (ranAgain(ti) || (ti.state ?? null) !== null || !ti.logical_date) continue;
      byDag.set(ti.dag_id, [...(byDag.get(ti.dag_id) ?? []), ti]);
    }
    const again = new Set<string>();
    for (const [dagId, waiting] of byDag) {
      const dates = waiting.map((ti) => Date.parse(ti.logical_date!));
      const pages = await everyPage<{ dag_runs: { dag_run_id: string }[]; total_entries: number }>(
        exchange,
        LIST_DAG_RUNS,
        (offset) => listEndedRunsBody(dagId, Math.min(...dates), Math.max(...dates), offset),
        `reading the ended DAG runs of ${dagId}`,
      );
      const ended = new Set(pages.flatMap((p) => p.dag_runs.map((r) => r.dag_run_id)));
      const byRun = new Map<string, TaskInstance[]>();
      for (const ti of waiting) if (ended.has(ti.dag_run_id)) byRun.set(ti.dag_run_id, [...(byRun.get(ti.dag_run_id) ?? []), ti]);
      for (const [runId, stuck] of byRun) {
        const group = clearAgainGroup(
          dagId,
          stuck.map((ti) => ti.task_id),
          stuck[0]!.logical_date!,
        );
        await exchange.send<TaskInstanceCollection>({
          method: "POST",
          path: clearPath(group),
          body: clearBody(group, false),
          ids: (a) => ({ dagId, clearedAgain: clearedIds(a.status === 200 ? a.body.task_instances : []) }),
          expect: [200],
          what: `clearing ${group.taskIds.join(", ")} in ${dagId} again (its DAG run ${runId} had ended)`,
        });
        for (const ti of stuck) again.add(mappedKey(ti));
      }
    }
    return again;
  }

  /** The DAGs among `dagIds` Airflow says are paused (GET of each DAG: `is_paused`). */
  async function pausedDags(exchange: Exchange, dagIds: readonly string[]): Promise<Set<string>> {
    const paused = new Set<string>();
    for (const dagId of dagIds) {
      const answer = await exchange.send<{ is_paused?: boolean }>({
        method: "GET",
        path: dagPath(dagId),
        ids: (a) => ({ dagId, ...(a.status === 200 ? { isPaused: String(a.body.is_paused) } : {}) }),
        expect: [200],
        what: `reading DAG ${dagId}`,
      });
      if (answer.body.is_paused) paused.add(dagId);
    }
    return paused;
  }

  return {
    kind: "airflow",
    blocksDownstream: false,
    requests: (plan) => airflowRequests(connection, plan),

    async preview(plan) {
      const { groups, unsupported: unaddressable } = clearGroups(connection, plan);
      const exchange = airflow.exchange();
      const paused = await pausedDags(exchange, [...new Set(groups.map((g) => g.dagId))]);
      const unsupported = [...unaddressable, ...pausedPairs(connection, plan, paused)];
      const wouldClear: TaskInstance[] = [];
      for (const g of groups) {
        const answer = await exchange.send<TaskInstanceCollection>({
          method: "POST",
          path: clearPath(g),
          body: clearBody(g, true),
          dryRun: true,
          ids: (a) => ({ taskInstances: a.body?.task_instances?.length ?? 0 }),
          expect: [200],
          what: `a dry run of clearing ${g.taskIds.join(", ")} in DAG ${g.dagId}`,
        });
        wouldClear.push(...answer.body.task_instances);
      }
      return {
        requests: airflowRequests(connection, plan).requests,
        unsupported,
        ...compareDryRun(connection, plan, wouldClear, unsupported),
        calls: exchange.calls,
      };
    },

    async dispatchWave(plan, wave, startedRaw) {
      const exchange = airflow.exchange();
      const started = (startedRaw ?? null) as unknown as AirflowHandle | null;
      const groupKey = (g: ClearGroup) => compositeKey(g.dagId, g.start, g.end, ...g.taskIds);
      const done = new Set((started?.groups ?? []).map(groupKey));
      const handle: AirflowHandle = {
        dispatchedAt: started?.dispatchedAt ?? new Date().toISOString(),
        groups: clearGroups(connection, plan).groups.filter((g) => g.wave === wave),
        cleared: { ...(started?.cleared ?? {}) },
      };
      const sent: ClearGroup[] = handle.groups.filter((g) => done.has(groupKey(g)));
      for (const g of handle.groups) {
        if (done.has(groupKey(g))) continue; // cleared by the try that failed: it runs already
        let answer: JsonAnswer<TaskInstanceCollection>;
        try {
          answer = await exchange.send<TaskInstanceCollection>({
            method: "POST",
            path: clearPath(g),
            body: clearBody(g, false),
            ids: (a) => ({ dagId: g.dagId, cleared: clearedIds(a.status === 200 ? a.body.task_instances : []) }),
            expect: [200],
            what: `clearing ${g.taskIds.join(", ")} in DAG ${g.dagId}`,
          });
        } catch (e) {
          // The clears that went through will run once Airflow schedules them: a cancel must still reach them.
          if (e instanceof OrchestratorError && sent.length > 0)
            throw new OrchestratorError(e.message, e.call, e.earlier, { ...handle, groups: sent } as unknown as Record<string, unknown>);
          throw e;
        }
        sent.push(g);
        for (const ti of answer.body.task_instances) if (ti.logical_date) handle.cleared[mappedKey(ti)] = ti.try_number;
      }
      return { handle: handle as unknown as Record<string, unknown>, calls: exchange.calls };
    },

    async poll(plan, wave, raw) {
      const handle = raw as unknown as AirflowHandle;
      const exchange = airflow.exchange();
      const seen = new Map<string, TaskInstance[]>();
      for (const g of handle.groups) {
        const pages = await everyPage<TaskInstanceCollection>(
          exchange,
          LIST_TASK_INSTANCES,
          (offset) => listClearedBody(g, offset),
          `reading the task instances of ${g.dagId}`,
        );
        for (const ti of pages.flatMap((p) => p.task_instances)) {
          if (!ti.logical_date) continue;
          const key = tiKey(ti.dag_id, ti.task_id, ti.logical_date);
          seen.set(key, [...(seen.get(key) ?? []).filter((x) => x.map_index !== ti.map_index), ti]);
        }
      }
      const since = Date.parse(handle.dispatchedAt);
      /** Whether a task instance ran since the clear: its try number passed the cleared one. */
      const ranAgain = (ti: TaskInstance): boolean => {
        const clearedTry = handle.cleared[mappedKey(ti)];
        return clearedTry !== undefined ? ti.try_number > clearedTry : !!ti.end_date && Date.parse(ti.end_date) >= since;
      };
      const wavePairs = plan.pairs
        .filter((p) => p.wave === wave)
        .map((p) => {
          const { dagId, taskId } = airflowTaskOf(connection, plan.tasks.get(p.taskNodeId)!);
          const start = plan.windowOf(p.taskNodeId, p.unitKey)?.start.toISOString() ?? "";
          return { p, at: { dagId, taskId, start }, tis: seen.get(tiKey(dagId, taskId, start)) ?? [] };
        });
      const recleared =
        Date.now() - since >= UNSCHEDULED_GRACE_MS
          ? await clearAgainInEndedRuns(
              exchange,
              wavePairs.flatMap((x) => x.tis),
              ranAgain,
            )
          : new Set<string>();
      const pairs = wavePairs.map(({ p, at, tis }) => pairProgress(p, at, tis, ranAgain, (ti) => recleared.has(mappedKey(ti))));
      // Still unscheduled after the grace: a DAG paused since the dry run runs nothing until unpaused; say so.
      const waiting = wavePairs.filter(({ tis }) => tis.length > 0 && tis.every((ti) => !ranAgain(ti) && (ti.state ?? null) === null));
      if (waiting.length === 0 || Date.now() - since < UNSCHEDULED_GRACE_MS) return { pairs, calls: exchange.calls };
      const paused = await pausedDags(exchange, [...new Set(waiting.map((x) => x.at.dagId))]);
      return {
        pairs: pairs.map((pp, i) =>
          paused.has(wavePairs[i]!.at.dagId) && waiting.includes(wavePairs[i]!) ? { ...pp, detail: pausedReason(wavePairs[i]!.at.dagId) } : pp,
        ),
        calls: exchange.calls,
      };
    },

    async cancel(_plan, raw) {
      const handle = raw as unknown as AirflowHandle;
      const exchange = airflow.exchange();
      for (const g of handle.groups) {
        const answer = await exchange.send<TaskInstanceCollection>({ method: "POST", path: LIST_TASK_INSTANCES, body: listStillToRunBody(g) });
        if (answer.status !== 200) continue;
        for (const ti of answer.body.task_instances) await exchange.send({ method: "PATCH", ...markFailed(ti) });
      }
      return { calls: exchange.calls as OrchestratorCall[] };
    },
  };
}
