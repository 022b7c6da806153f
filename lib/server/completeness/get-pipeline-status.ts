import type { PipelineStatusView } from "@/lib/contracts/dataset-status";
import { NotFoundError, RefusedError } from "@/lib/domain/errors";
import { counted } from "@/lib/domain/words";
import { getDb, type Db } from "../repositories/database";
import { loadCompletenessCatalog } from "./get-completeness";
import { getDatasetStatus } from "./get-dataset-status";

type State = PipelineStatusView["state"];
/** Worst first: what a pipeline's line leads with. */
const WORST: State[] = ["incomplete", "being_repaired", "unknown", "complete"];
const WORDS: Record<State, string> = { incomplete: "not complete", being_repaired: "being repaired", unknown: "expected units unknown", complete: "complete" };

/**
 * A pipeline's status for whoever reads what it writes: each dataset's status line (the same as
 * its own page), and one line for the pipeline — "orders · 4 of 7 datasets complete · 2 not
 * complete · 1 expected units unknown". A dataset whose partitions nobody declared is "unknown",
 * never complete.
 */
export async function getPipelineStatus(pipeline: string, now: Date, db: Db = getDb()): Promise<PipelineStatusView> {
  // One read of the catalog and one lineage graph for every dataset's certificate.
  const catalog = await loadCompletenessCatalog(db, now);
  const datasets = catalog.datasets.filter((d) => d.pipeline === pipeline && !d.external).sort((a, b) => a.name.localeCompare(b.name));
  if (datasets.length === 0) throw new NotFoundError(`no pipeline "${pipeline}" writing a dataset`);
  const lines: PipelineStatusView["datasets"] = [];
  const incidents = new Map<string, PipelineStatusView["incidents"][number]>();
  for (const d of datasets) {
    const page = `/status/${encodeURIComponent(d.nodeId)}`;
    try {
      const s = await getDatasetStatus(d.nodeId, now, db, catalog);
      for (const i of s.incidents) incidents.set(i.id, i);
      lines.push({
        nodeId: d.nodeId,
        name: d.name,
        state: s.state,
        headline: s.headline,
        completeThrough: s.completeThrough,
        problems: s.problems.length,
        page,
      });
    } catch (error) {
      if (!(error instanceof RefusedError)) throw error;
      lines.push({
        nodeId: d.nodeId,
        name: d.name,
        state: "unknown",
        headline: `${d.name} · expected units unknown: no partition definition declared`,
        completeThrough: null,
        problems: 0,
        page,
      });
    }
  }
  const count = (s: State) => lines.filter((l) => l.state === s).length;
  const state = WORST.find((s) => count(s) > 0)!;
  const others = WORST.filter((s) => s !== "complete" && count(s) > 0).map((s) => `${count(s)} ${WORDS[s]}`);
  const headline = [pipeline, `${count("complete")} of ${counted(lines.length, "dataset")} complete`, ...others].join(" · ");
  return { pipeline, checkedAt: now.toISOString(), state, headline, datasets: lines, incidents: [...incidents.values()] };
}
