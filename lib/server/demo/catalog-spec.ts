import type { PartitionDef } from "@/lib/domain/partitions";

/** A pipeline catalog as the demo declares it: what registerCatalog writes to Pipeline/Task/Dataset/LineageEdge. */
export interface CatalogSpec {
  pipelines: { namespace: string; description: string; owner: string }[];
  datasets: {
    nodeId: string;
    pipeline: string;
    kind: "table" | "dashboard" | "export" | "feature_set";
    partitionDef: PartitionDef;
    external?: boolean;
    tolerance?: number;
    sourceImmutable?: boolean;
    retentionDays?: number;
    description: string;
  }[];
  tasks: {
    nodeId: string;
    pipeline: string;
    writeMode: "replace" | "merge" | "append";
    sideEffect: "none" | "external";
    dependsOnOwnPast: boolean;
    owner: string;
    description: string;
  }[];
  edges: { task: string; dataset: string; direction: "read" | "write"; mapping?: string; mappingParams?: Record<string, unknown> }[];
  /** The owners' teams (no channel: the notifier's default webhook reaches them). */
  teams?: { name: string; people: string[] }[];
  /** Who reads past the last dataset, by the node ids they read. */
  consumers?: { key: string; name: string; kind: "dashboard" | "export_recipient" | "model_team" | "other"; reads: string[]; people: string[] }[];
}
