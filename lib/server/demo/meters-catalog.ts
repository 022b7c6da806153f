import type { PartitionDef } from "@/lib/domain/partitions";
import { METER_DATASETS as D, METER_TASKS as T } from "../executor/task-code/node-ids";
import type { CatalogSpec } from "./catalog-spec";

const MONTHLY: PartitionDef = { kind: "time", grain: "month", start: "2026-01", end: "2026-12", timezone: "UTC" };
// Consumption needs the previous period's index, so it exists from the second period on.
const FROM_SECOND: PartitionDef = { kind: "time", grain: "month", start: "2026-02", end: "2026-12", timezone: "UTC" };

/**
 * Seed 003's meter readings: a landing task writing raw monthly partitions, then the five
 * stages. `landingWriteMode` is the seed's "appending or keyed" choice for the landing write.
 */
export function metersCatalog(landingWriteMode: "append" | "merge"): CatalogSpec {
  const task = (nodeId: string, writeMode: "replace" | "merge" | "append", description: string) => ({
    nodeId,
    pipeline: "meters",
    writeMode,
    sideEffect: "none" as const,
    dependsOnOwnPast: false,
    owner: "utilities-team",
    description,
  });
  const table = (nodeId: string, partitionDef: PartitionDef, description: string) => ({
    nodeId,
    pipeline: "meters",
    kind: "table" as const,
    partitionDef,
    description,
  });
  return {
    pipelines: [{ namespace: "meters", description: "Monthly water-meter readings to regional consumption averages", owner: "utilities-team" }],
    datasets: [
      { ...table(D.raw, MONTHLY, "Raw meter readings, one partition per period"), sourceImmutable: true },
      table(D.screened, MONTHLY, "Readings with every required field"),
      table(D.deduped, MONTHLY, "One reading per subscriber and period"),
      table(D.consumption, FROM_SECOND, "Monthly consumption per subscriber"),
      table(D.summary, FROM_SECOND, "Total consumption per region and period"),
      table(D.serving, { kind: "none" }, "Average monthly consumption per region"),
    ],
    tasks: [
      task(T.land, landingWriteMode, "Lands one period from the meter vendor"),
      task(T.screen, "replace", "Stage 1: drops records missing a required field"),
      task(T.dedupe, "replace", "Stage 2: one reading per subscriber and period"),
      task(T.consumption, "replace", "Stage 3: index minus the previous period's index"),
      task(T.summary, "replace", "Stage 4: total per region and period"),
      task(T.serve, "replace", "Stage 5: average per region over the periods"),
    ],
    edges: [
      { task: T.land, dataset: D.raw, direction: "write" },
      { task: T.screen, dataset: D.raw, direction: "read" },
      { task: T.screen, dataset: D.screened, direction: "write" },
      { task: T.dedupe, dataset: D.screened, direction: "read" },
      { task: T.dedupe, dataset: D.deduped, direction: "write" },
      { task: T.consumption, dataset: D.deduped, direction: "read", mapping: "window", mappingParams: { k: 2 } },
      { task: T.consumption, dataset: D.consumption, direction: "write" },
      { task: T.summary, dataset: D.consumption, direction: "read" },
      { task: T.summary, dataset: D.summary, direction: "write" },
      { task: T.serve, dataset: D.summary, direction: "read", mapping: "all" },
      { task: T.serve, dataset: D.serving, direction: "write" },
    ],
  };
}
