import { parseNodeId } from "@/lib/domain/ids";
import { createDeclaredDataset, createDeclaredTask, createEdges, createPipeline } from "../repositories/lineage/catalog-writes";
import { inTransaction, type Db } from "../repositories/database";
import { saveConnection } from "../repositories/pipelines/orchestrator-connections";
import { saveWarehouse } from "../repositories/warehouses/warehouse-connections";
import { consumerNodeId, saveConsumer, saveTeam } from "../repositories/people/teams-and-consumers";
import type { CatalogSpec } from "./catalog-spec";

/** Ids of what was registered, by namespace (pipelines) and node id (tasks, datasets). */
export interface RegisteredCatalog {
  pipelines: Map<string, string>;
  tasks: Map<string, string>;
  datasets: Map<string, string>;
}

/**
 * Writes a catalog's pipelines, tasks, datasets, lineage edges, teams and consumers in one transaction. Edges
 * hold from `validFrom` on (lineage is versioned in time). A pipeline's name is its namespace; its
 * repairs run on the demo's executor (a `local` orchestrator connection).
 */
export async function registerCatalog(db: Db, spec: CatalogSpec, validFrom: Date): Promise<RegisteredCatalog> {
  return inTransaction(db, async (tx) => {
    const out: RegisteredCatalog = { pipelines: new Map(), tasks: new Map(), datasets: new Map() };
    for (const p of spec.pipelines) {
      const id = await createPipeline(tx, p);
      out.pipelines.set(p.namespace, id);
      // The demo's pipelines repair on the demo's own executor: the `local` orchestrator.
      await saveConnection(tx, id, { kind: "local" }, "demo", validFrom);
    }
    const pipelineId = (ns: string) => {
      const id = out.pipelines.get(ns);
      if (!id) throw new Error(`catalog names an undeclared pipeline ${ns}`);
      return id;
    };
    for (const d of spec.datasets) {
      const { namespace, name } = parseNodeId(d.nodeId)!;
      out.datasets.set(
        d.nodeId,
        await createDeclaredDataset(tx, {
          nodeId: d.nodeId,
          namespace,
          name,
          pipelineId: pipelineId(d.pipeline),
          kind: d.kind,
          external: d.external ?? false,
          partitionDef: d.partitionDef,
          rowCountTolerance: d.tolerance ?? 0.05,
          sourceImmutable: d.sourceImmutable ?? null,
          retentionDays: d.retentionDays ?? null,
          description: d.description,
        }),
      );
    }
    // The demo's datasets live in the demo's own warehouse table.
    for (const namespace of new Set(spec.datasets.map((d) => parseNodeId(d.nodeId)!.namespace)))
      await saveWarehouse(tx, namespace, { kind: "demo" }, "demo", validFrom);
    for (const t of spec.tasks) {
      const { namespace, name } = parseNodeId(t.nodeId)!;
      out.tasks.set(
        t.nodeId,
        await createDeclaredTask(tx, {
          nodeId: t.nodeId,
          namespace,
          name,
          pipelineId: pipelineId(t.pipeline),
          writeMode: t.writeMode,
          sideEffect: t.sideEffect,
          dependsOnOwnPast: t.dependsOnOwnPast,
          publishMode: "per_unit",
          owner: t.owner,
          description: t.description,
        }),
      );
    }
    await createEdges(
      tx,
      spec.edges.map((e) => ({
        taskId: out.tasks.get(e.task)!,
        datasetId: out.datasets.get(e.dataset)!,
        direction: e.direction,
        mapping: e.mapping ?? "identity",
        mappingParams: e.mappingParams ?? {},
        validFrom,
      })),
    );
    for (const team of spec.teams ?? []) await saveTeam(tx, { ...team, channel: null });
    for (const c of spec.consumers ?? []) await saveConsumer(tx, { ...c, nodeId: consumerNodeId(c.key), channel: null });
    return out;
  });
}
