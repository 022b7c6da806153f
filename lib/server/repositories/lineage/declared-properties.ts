import type { TaskPropertiesSchema } from "@/lib/contracts/audit";
import { PartitionDefSchema } from "@/lib/contracts/partitions";
import type { PartitionDef } from "@/lib/domain/partitions";
import type { z } from "zod";
import type { Tx } from "../database";
import { parsePartitionDef } from "./catalog-reads";
import { parseFactSources } from "./fact-sources-json";
import type { FactSourcesOf, TaskFactValues } from "@/lib/domain/fact-sources";
import { PUBLISH_MODES, SIDE_EFFECTS, WRITE_MODES } from "@/lib/domain/lineage-graph";
import { prismaOf } from "../prisma-handle";

export type TaskProperties = z.infer<typeof TaskPropertiesSchema>;

/** Rows whose node id is one of the candidates, or whose row id is `rowId`. */
async function matching(tx: Tx, table: "task" | "dataset", nodeIds: string[], rowId: string): Promise<{ id: string; nodeId: string }[]> {
  const where = { OR: [{ nodeId: { in: nodeIds } }, { id: rowId }] };
  const select = { id: true, nodeId: true } as const;
  return table === "task" ? prismaOf(tx).task.findMany({ where, select }) : prismaOf(tx).dataset.findMany({ where, select });
}

export async function datasetsMatching(tx: Tx, nodeIds: string[], rowId: string) {
  return matching(tx, "dataset", nodeIds, rowId);
}

export async function tasksMatching(tx: Tx, nodeIds: string[], rowId: string) {
  return matching(tx, "task", nodeIds, rowId);
}

/** The stored definition, in its JSON (contract) shape, and whether anyone declared it. */
export async function datasetPartitionDef(tx: Tx, id: string): Promise<{ def: z.infer<typeof PartitionDefSchema>; declared: boolean }> {
  const row = await prismaOf(tx).dataset.findUniqueOrThrow({ where: { id }, select: { nodeId: true, partitionDef: true, partitionsDeclared: true } });
  return { def: parsePartitionDef(row.partitionDef, row.nodeId), declared: row.partitionsDeclared };
}

/** Stores a declared definition: from now on the dataset's expected units are known. */
export async function saveDatasetPartitionDef(tx: Tx, id: string, def: PartitionDef): Promise<void> {
  await prismaOf(tx).dataset.update({ where: { id }, data: { partitionDef: JSON.stringify(def), partitionsDeclared: true } });
}

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | null =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;

/** A stored value outside the vocabulary reads as unknown (null), as listTasks reads it. */
export async function taskProperties(tx: Tx, id: string): Promise<TaskProperties> {
  const t = await prismaOf(tx).task.findUniqueOrThrow({ where: { id } });
  return {
    writeMode: oneOf(t.writeMode, WRITE_MODES),
    sideEffect: oneOf(t.sideEffect, SIDE_EFFECTS),
    dependsOnOwnPast: t.dependsOnOwnPast,
    publishMode: oneOf(t.publishMode, PUBLISH_MODES),
    owner: t.owner,
  };
}

/** A person's declaration: the properties it sets are recorded as declared (lib/domain/fact-sources.ts). */
export async function saveTaskProperties(tx: Tx, id: string, props: TaskProperties, declared: readonly string[]): Promise<void> {
  const row = await prismaOf(tx).task.findUniqueOrThrow({ where: { id }, select: { factSources: true } });
  const sources = { ...parseFactSources(row.factSources), ...Object.fromEntries(declared.map((f) => [f, "declared"])) };
  await prismaOf(tx).task.update({ where: { id }, data: { ...props, factSources: JSON.stringify(sources) } });
}

/** Each task's repair-safety facts as held, and where each came from (lib/domain/fact-sources.ts). */
export async function taskFactsWithSources(tx: Tx, ids: readonly string[]): Promise<Map<string, { values: TaskFactValues; sources: FactSourcesOf }>> {
  const rows = await prismaOf(tx).task.findMany({ where: { id: { in: [...new Set(ids)] } } });
  return new Map(
    rows.map((t) => [
      t.id,
      {
        values: {
          writeMode: oneOf(t.writeMode, WRITE_MODES),
          sideEffect: oneOf(t.sideEffect, SIDE_EFFECTS),
          dependsOnOwnPast: t.dependsOnOwnPast,
          publishMode: oneOf(t.publishMode, PUBLISH_MODES),
          owner: t.owner || null,
        },
        sources: parseFactSources(t.factSources),
      },
    ]),
  );
}
