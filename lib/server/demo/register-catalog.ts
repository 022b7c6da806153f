import { parseNodeId } from "@/lib/domain/ids";
import type { Db } from "../db/client";
import { saveConnection } from "../repositories/orchestrator-connections";
import { saveWarehouse } from "../repositories/warehouse-connections";
import type { CatalogSpec } from "./catalog-spec";

/** Ids of what was registered, by namespace (pipelines) and node id (tasks, datasets). */
export interface RegisteredCatalog {
  pipelines: Map<string, string>;
  tasks: Map<string, string>;
  datasets: Map<string, string>;
}

/**
 * Writes a catalog's pipelines, tasks, datasets and lineage edges in one transaction. Edges
 * hold from `validFrom` on (lineage is versioned in time). A pipeline's name is its namespace; its
 * repairs run on the demo's executor (a `local` orchestrator connection).
 */
export async function registerCatalog(db: Db, spec: CatalogSpec, validFrom: Date): Promise<RegisteredCatalog> {
  return db.$transaction(async (tx) => {
    const out: RegisteredCatalog = { pipelines: new Map(), tasks: new Map(), datasets: new Map() };
    for (const p of spec.pipelines) {
      const row = await tx.pipeline.create({ data: { namespace: p.namespace, name: p.namespace, description: p.description, owner: p.owner } });
      out.pipelines.set(p.namespace, row.id);
      // The demo's pipelines repair on the demo's own executor: the `local` orchestrator.
      await saveConnection(tx, row.id, { kind: "local" }, "demo", validFrom);
    }
    const pipelineId = (ns: string) => {
      const id = out.pipelines.get(ns);
      if (!id) throw new Error(`catalog names an undeclared pipeline ${ns}`);
      return id;
    };
    for (const d of spec.datasets) {
      const { namespace, name } = parseNodeId(d.nodeId)!;
      const row = await tx.dataset.create({ data: {
        nodeId: d.nodeId, namespace, name, pipelineId: pipelineId(d.pipeline), kind: d.kind, external: d.external ?? false,
        partitionDef: JSON.stringify(d.partitionDef), partitionsDeclared: true, rowCountTolerance: d.tolerance ?? 0.05, sourceImmutable: d.sourceImmutable ?? null,
        retentionDays: d.retentionDays ?? null, description: d.description,
      } });
      out.datasets.set(d.nodeId, row.id);
    }
    // The demo's datasets live in the demo's own warehouse table.
    for (const namespace of new Set(spec.datasets.map((d) => parseNodeId(d.nodeId)!.namespace))) await saveWarehouse(tx, namespace, { kind: "demo" }, "demo", validFrom);
    for (const t of spec.tasks) {
      const { namespace, name } = parseNodeId(t.nodeId)!;
      const row = await tx.task.create({ data: {
        nodeId: t.nodeId, namespace, name, pipelineId: pipelineId(t.pipeline), writeMode: t.writeMode, sideEffect: t.sideEffect,
        dependsOnOwnPast: t.dependsOnOwnPast, publishMode: "per_unit", owner: t.owner, description: t.description,
      } });
      out.tasks.set(t.nodeId, row.id);
    }
    await tx.lineageEdge.createMany({ data: spec.edges.map((e) => ({
      taskId: out.tasks.get(e.task)!, datasetId: out.datasets.get(e.dataset)!, direction: e.direction,
      mapping: e.mapping ?? "identity", mappingParams: JSON.stringify(e.mappingParams ?? {}), validFrom,
    })) });
    return out;
  });
}
