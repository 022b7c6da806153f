import { datasetStatus } from "@/lib/domain/dataset-status";
import type { DatasetStatusView } from "@/lib/contracts/dataset-status";
import { getDb, type Db } from "../repositories/database";
import { certifyCompleteness, type CompletenessCatalog } from "./get-completeness";
import { incidentPlanEta } from "../repair/plan-eta";

/**
 * A dataset's status for whoever reads its numbers (issue "Who must know", item 4): the
 * completeness certificate of its default period — the one the completeness page opens on — in
 * one line, with the open incidents on its units. It says nothing the completeness page does not.
 */
export async function getDatasetStatus(dataset: string, now: Date, db: Db = getDb(), catalog?: CompletenessCatalog): Promise<DatasetStatusView> {
  const { answer, targetKeys } = await certifyCompleteness({ dataset }, now, db, catalog);
  const status = datasetStatus({
    name: answer.dataset.name,
    keys: targetKeys,
    verdict: answer.verdict,
    problems: answer.byUnit.map((u) => ({ unitKey: u.unitKey, effect: u.plain.effect.kind, onIt: u.plain.onIt })),
  });
  const byKey = new Map(answer.byUnit.map((u) => [u.unitKey, u]));
  // Each open incident once, with when its plan should be done: a reader asks "when will it be right?".
  const incidents = new Map<string, DatasetStatusView["incidents"][number]>();
  for (const i of answer.byUnit.flatMap((u) => u.plain.onIt)) {
    if (incidents.has(i.id)) continue;
    const eta = await incidentPlanEta(db, i.id, now);
    incidents.set(i.id, {
      id: i.id,
      title: i.title,
      status: i.status,
      href: i.href,
      eta: eta ? { at: eta.at?.toISOString() ?? null, basis: eta.basis } : null,
    });
  }
  const id = encodeURIComponent(answer.dataset.nodeId);
  return {
    dataset: answer.dataset,
    period: answer.period,
    checkedAt: answer.checkedAt,
    state: status.state,
    completeThrough: status.completeThrough,
    headline: status.headline,
    problems: status.problems.map((p) => ({
      unitKey: p.unitKey,
      word: p.word,
      sentence: byKey.get(p.unitKey)!.plain.sentence,
      beingRepaired: p.beingRepaired,
      incidents: byKey.get(p.unitKey)!.plain.onIt.map((i) => incidents.get(i.id)!),
    })),
    incidents: [...incidents.values()],
    links: {
      page: `/status/${id}`,
      badge: `/api/v1/datasets/${id}/badge.svg`,
      completeness: `/completeness?${new URLSearchParams({ dataset: answer.dataset.nodeId, from: answer.period.from, to: answer.period.to })}`,
    },
  };
}
