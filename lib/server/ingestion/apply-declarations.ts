import { describeChannel } from "@/lib/contracts/people";
import { parse as parseYaml } from "yaml";
import { ZodError } from "zod";
import {
  DeclarationFileSchema,
  type DeclarationChange,
  type DeclarationFile,
  type DeclarationsResult,
  type PutDeclarations,
} from "@/lib/contracts/declarations";
import { describeIssues, fieldIssues } from "@/lib/contracts/field-issues";
import { ForbiddenError, InvalidFieldError } from "@/lib/domain/errors";
import { formatNodeId } from "@/lib/domain/ids";
import type { PartitionDef } from "@/lib/domain/partitions";
import { holdsIn, type Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db, type Tx } from "../repositories/database";
import { datasetOwnersOf, recordDatasetOwners } from "../repositories/people/dataset-owners";
import {
  consumerNodeId,
  listConsumers,
  listTeams,
  saveConsumer,
  saveTeam,
  type ConsumerRecord,
  type TeamRecord,
} from "../repositories/people/teams-and-consumers";
import { ensureDatasets, ensureTasks, recordTaskFacts } from "../repositories/lineage/catalog-writes";
import { taskFactsWithSources } from "../repositories/lineage/declared-properties";
import { inOneTransaction } from "./in-one-transaction";
import { declarePartitions, resolveOrRefuse } from "./set-dataset-partitions";
import { TASK_FACTS } from "@/lib/domain/fact-sources";

/** Thrown inside the transaction to roll a dry run back once its changes are known. */
class DryRun extends Error {
  constructor(readonly result: DeclarationsResult) {
    super("dry run");
  }
}

/**
 * PUT /api/v1/declarations: the team's declaration file applied in one transaction, or (dryRun)
 * only its difference shown — the same code path, rolled back. Datasets and tasks nobody sent yet
 * are created (a team declares before its first run). What it declares is the declared fact
 * (lib/domain/fact-sources.ts): it outranks dbt's manifest and the producers' facets. Facts that
 * already held change nothing; partitions that changed fold the stored runs again. One audit entry
 * lists every change with what it was and where that came from. Idempotent: applying a file twice
 * changes nothing the second time.
 */
export async function applyDeclarations(body: PutDeclarations, actor: Actor, db: Db = getDb(), now = new Date()): Promise<DeclarationsResult> {
  const file = parseFile(body.declarations);
  requireNamespaces(file, actor);
  const spaces = file.datasets.map((d, i) =>
    d.partitions ? resolveOrRefuse(d.partitions as PartitionDef, now, `body.declarations.datasets.${i}.partitions`) : null,
  );
  try {
    return await inOneTransaction(db, async (tx) => {
      const changes: DeclarationChange[] = [];
      let unchanged = 0;
      const refolded = { runs: 0, publishes: 0 };
      const datasetRefs = file.datasets.map((d) => ({ nodeId: formatNodeId("dataset", d.namespace, d.name), namespace: d.namespace, name: d.name }));
      const datasets = await ensureDatasets(tx, datasetRefs);
      for (const [i, d] of file.datasets.entries()) {
        const space = spaces[i];
        if (!d.partitions || !space) continue;
        const handle = datasets.get(datasetRefs[i]!.nodeId)!;
        const declared = await declarePartitions(tx, { id: handle.id, nodeId: datasetRefs[i]!.nodeId }, d.partitions as PartitionDef, space);
        if (!declared.changed) unchanged++;
        else {
          changes.push({
            nodeId: datasetRefs[i]!.nodeId,
            fact: "partitions",
            before: declared.before,
            beforeSource: declared.before ? "declared" : null,
            after: d.partitions,
          });
          refolded.runs += declared.resolved.runs;
          refolded.publishes += declared.resolved.publishes;
        }
      }
      const taskRefs = file.tasks.map((t) => ({ nodeId: formatNodeId("job", t.namespace, t.name), namespace: t.namespace, name: t.name }));
      const tasks = await ensureTasks(tx, taskRefs);
      const ids = taskRefs.map((r) => tasks.get(r.nodeId)!.id);
      const held = await taskFactsWithSources(tx, ids);
      for (const [i, t] of file.tasks.entries()) {
        const before = held.get(ids[i]!)!;
        for (const fact of TASK_FACTS) {
          const after = t[fact];
          if (after === undefined) continue;
          if (before.values[fact] === after && before.sources[fact] === "declared") unchanged++;
          else changes.push({ nodeId: taskRefs[i]!.nodeId, fact, before: before.values[fact] ?? null, beforeSource: before.sources[fact] ?? null, after });
        }
      }
      await recordTaskFacts(
        tx,
        file.tasks.map((t, i) => ({ taskId: ids[i]!, facts: pick(t), source: "declared" as const })),
      );
      const people = await declarePeople(tx, file, datasets, datasetRefs);
      changes.push(...people.changes);
      unchanged += people.unchanged;
      let auditSeq: number | null = null;
      if (changes.length > 0) {
        const entry = await appendAudit(
          tx,
          {
            kind: "declarations.applied",
            actor: actor.id,
            actorRole: actor.role,
            reason: body.reason,
            targets: [...new Set(changes.map((c) => c.nodeId))].map((nodeId) => ({ nodeId, units: [] })),
            before: { changes: changes.map((c) => ({ nodeId: c.nodeId, fact: c.fact, value: c.before, source: c.beforeSource })) },
            after: { changes: changes.map((c) => ({ nodeId: c.nodeId, fact: c.fact, value: c.after })), refolded },
          },
          now,
        );
        auditSeq = entry.seq;
      }
      const result: DeclarationsResult = { applied: !body.dryRun, changes, unchanged, refolded, auditSeq: body.dryRun ? null : auditSeq };
      if (body.dryRun) throw new DryRun(result);
      return result;
    });
  } catch (e) {
    if (e instanceof DryRun) return e.result;
    throw e;
  }
}

/**
 * The file's owners, teams and consumers: datasets' declared owners (by precedence, as the task
 * facts), then each team and consumer created or replaced whole. What already held is counted,
 * not changed.
 */
async function declarePeople(
  tx: Tx,
  file: DeclarationFile,
  datasets: Map<string, { id: string }>,
  refs: { nodeId: string }[],
): Promise<{ changes: DeclarationChange[]; unchanged: number }> {
  const changes: DeclarationChange[] = [];
  let unchanged = 0;
  const owned = file.datasets.flatMap((d, i) => (d.owner ? [{ nodeId: refs[i]!.nodeId, datasetId: datasets.get(refs[i]!.nodeId)!.id, owner: d.owner }] : []));
  const heldOwners = await datasetOwnersOf(
    tx,
    owned.map((o) => o.datasetId),
  );
  for (const o of owned) {
    const before = heldOwners.get(o.datasetId);
    if (before?.owner === o.owner && before.source === "declared") unchanged++;
    else changes.push({ nodeId: o.nodeId, fact: "owner", before: before?.owner ?? null, beforeSource: before?.owner ? before.source : null, after: o.owner });
  }
  await recordDatasetOwners(
    tx,
    owned.map((o) => ({ datasetId: o.datasetId, owner: o.owner, source: "declared" as const })),
  );
  const teams = new Map((await listTeams(tx)).map((t) => [t.name, t]));
  for (const t of file.teams) {
    const after: TeamRecord = { name: t.name, people: t.people, channel: t.channel ?? null };
    const before = teams.get(t.name) ?? null;
    if (before && sameJson(before, after)) unchanged++;
    else {
      // The audit log is read by viewers: a channel is recorded as described, never its URL (a hook's secret is in its path).
      const shown = (r: TeamRecord) => ({ ...r, channel: r.channel ? describeChannel(r.channel) : null });
      changes.push({
        nodeId: `team:${t.name}`,
        fact: "team",
        before: before ? shown(before) : null,
        beforeSource: before ? "declared" : null,
        after: shown(after),
      });
      await saveTeam(tx, after);
    }
  }
  const consumers = new Map((await listConsumers(tx)).map((c) => [c.key, c]));
  for (const c of file.consumers) {
    const after: ConsumerRecord = {
      key: c.id,
      nodeId: consumerNodeId(c.id),
      name: c.name ?? c.id,
      kind: c.kind,
      reads: [...new Set(c.reads.map((r) => formatNodeId(r.kind === "task" ? "job" : "dataset", r.namespace, r.name)))],
      people: c.people,
      channel: c.channel ?? null,
    };
    const before = consumers.get(c.id) ?? null;
    if (before && sameJson(before, after)) unchanged++;
    else {
      const shown = (r: ConsumerRecord) => ({
        name: r.name,
        kind: r.kind,
        reads: r.reads,
        people: r.people,
        channel: r.channel ? describeChannel(r.channel) : null,
      });
      changes.push({
        nodeId: after.nodeId,
        fact: "consumer",
        before: before ? shown(before) : null,
        beforeSource: before ? "declared" : null,
        after: shown(after),
      });
      await saveConsumer(tx, after);
    }
  }
  return { changes, unchanged };
}

const sameJson = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);

function pick(t: DeclarationFile["tasks"][number]) {
  return { writeMode: t.writeMode, sideEffect: t.sideEffect, dependsOnOwnPast: t.dependsOnOwnPast, publishMode: t.publishMode, owner: t.owner };
}

/** The file from its YAML (or JSON) text or object; every problem a 400 naming its place in the file. */
export function parseFile(input: PutDeclarations["declarations"]): DeclarationFile {
  let raw: unknown = input;
  if (typeof input === "string") {
    try {
      raw = parseYaml(input, { maxAliasCount: 100, uniqueKeys: true });
    } catch (e) {
      throw new InvalidFieldError("body.declarations", `not YAML: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  try {
    return DeclarationFileSchema.parse(raw);
  } catch (e) {
    if (e instanceof ZodError) {
      const issues = fieldIssues(e, "body.declarations");
      throw new InvalidFieldError(issues[0]?.path ?? "body.declarations", describeIssues(issues).replace(/^[^:]+: /, ""));
    }
    throw e;
  }
}

/** A person or token limited to namespaces declares only there. */
function requireNamespaces(file: DeclarationFile, actor: Actor): void {
  const named = [...file.datasets, ...file.tasks, ...file.consumers.flatMap((c) => c.reads)];
  const outside = [...new Set(named.map((n) => n.namespace))].filter((ns) => !holdsIn(actor, ns));
  if (outside.length > 0) throw new ForbiddenError(`${actor.id} holds in ${actor.namespaces.join(", ")} only; this file declares ${outside.join(", ")}`);
  // A team is named as owner in any namespace: only someone who holds in all of them declares its channel.
  if (file.teams.length > 0 && actor.namespaces.length > 0)
    throw new ForbiddenError(`${actor.id} holds in ${actor.namespaces.join(", ")} only; teams are declared by someone who holds in every namespace`);
}
