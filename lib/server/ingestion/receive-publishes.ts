import { PublishEntrySchema, type PublishesResult } from "@/lib/contracts/ingestion-ledger";
import type { Db } from "../repositories/database";
import { applyPublishes } from "./apply-publishes";
import { inOneTransaction } from "./in-one-transaction";
import { outcomeOf, type IngestionInput, type IngestionOutcome } from "./ingestion-outcome";
import { metrics } from "../observability/metrics";
import { allRefusals, logRefusals, readIngestionBatch, refNamespace } from "./read-ingestion-batch";

export const PUBLISHES_ENDPOINT = "/api/v1/publishes";

/**
 * POST /api/v1/publishes's use case: publish ledger entries (one object or a JSON array), for
 * producers that do not speak OpenLineage. One transaction per request; a refused entry writes
 * nothing except, for a unit key its dataset's partition definition rejects, the invalid key itself.
 */
export async function receivePublishes(db: Db, input: IngestionInput, now: Date): Promise<IngestionOutcome<PublishesResult>> {
  const { submitter } = input;
  const batch = await readIngestionBatch(input.text, db, PUBLISHES_ENDPOINT, PublishEntrySchema, now, (p) => ({ publishedAt: p.publishedAt }), {
    namespaces: submitter?.namespaces ?? [],
    of: (p) => [
      ["dataset", refNamespace(p.dataset)],
      ["run.job", refNamespace(p.run.job)],
    ],
  });
  const outcome = batch.items.length > 0 ? await inOneTransaction(db, (tx) => applyPublishes(tx, batch.items, batch.pathOf, now, submitter)) : null;
  const refused = allRefusals(batch, outcome?.refused ?? []);
  metrics().ingested.inc({ kind: "publish", outcome: "accepted" }, outcome?.accepted.length ?? 0);
  metrics().ingested.inc({ kind: "publish", outcome: "refused" }, refused.length);
  await logRefusals(db, PUBLISHES_ENDPOINT, refused, now);
  const result: PublishesResult = {
    received: batch.items.length + batch.refused.length,
    accepted: outcome?.accepted ?? [],
    rejected: refused.map(({ index, issues }) => ({ index, issues })),
    written: outcome?.written ?? { publishes: 0, runs: 0, invalidKeys: 0 },
  };
  return outcomeOf(result, result.accepted.length, refused.length, batch.refused.length > 0);
}
