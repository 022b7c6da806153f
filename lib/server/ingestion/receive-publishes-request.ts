import type { BodySource } from "../http/read-body";
import { PublishEntrySchema, type PublishesResult } from "@/lib/contracts/ingestion-ledger";
import type { Submitter } from "../auth/roles";
import { getDb, type Db } from "../repositories/database";
import { applyPublishes } from "./apply-publishes";
import { inOneTransaction } from "./in-one-transaction";
import { metrics } from "../observability/metrics";
import { allRefusals, batchResponse, logRefusals, readIngestionBatch, refNamespace } from "./read-ingestion-batch";

const ENDPOINT = "/api/v1/publishes";

/**
 * POST /api/v1/publishes: publish ledger entries (one object or a JSON array), for producers
 * that do not speak OpenLineage. One transaction per request; a refused entry writes nothing
 * except, for a unit key its dataset's partition definition rejects, the invalid key itself.
 */
export async function receivePublishesRequest(req: BodySource, db: Db = getDb(), now = new Date(), submitter?: Submitter): Promise<Response> {
  const batch = await readIngestionBatch(req, db, ENDPOINT, PublishEntrySchema, now, (p) => ({ publishedAt: p.publishedAt }), {
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
  await logRefusals(db, ENDPOINT, refused, now);
  const result: PublishesResult = {
    received: batch.items.length + batch.refused.length,
    accepted: outcome?.accepted ?? [],
    rejected: refused.map(({ index, issues }) => ({ index, issues })),
    written: outcome?.written ?? { publishes: 0, runs: 0, invalidKeys: 0 },
  };
  return batchResponse(result, batch.refused.length > 0);
}
