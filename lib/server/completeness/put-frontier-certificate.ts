import { advanceCheckpoint } from "@/lib/domain/frontier";
import type { FrontierCertificatePut } from "@/lib/contracts/completeness";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { ConflictError, NotFoundError } from "@/lib/domain/errors";
import { datasetIdOf } from "../repositories/lineage/catalog-reads";
import { findCertificate, swapCertificate } from "../repositories/completeness/frontier-certificates";

/**
 * Seed 002: a partition's complete-through certificate moves only by a compare-and-swap on its
 * generation (lib/domain advanceCheckpoint decides; the conditional write makes it hold across
 * console instances). A stale retry gets 409 with the winner to reread; a proposal that would
 * lower the watermark or change its epoch or domain is answered with the reason, nothing written.
 */
export async function putFrontierCertificate(input: FrontierCertificatePut, now: Date, db: Db = getDb()) {
  if ((await datasetIdOf(db, input.source)) === null) throw new NotFoundError(`no dataset "${input.source}" to certify`);
  return inTransaction(db, async (tx) => {
    const current = await findCertificate(tx, input.source, input.partition);
    const update = advanceCheckpoint(current, { ...input });
    const view = (c: typeof update.checkpoint) =>
      c === null
        ? null
        : {
            partition: c.partition,
            coordinate: c.coordinate,
            inclusive: c.inclusive,
            domain: c.domain,
            generation: c.generation,
            epoch: c.epoch,
            updatedAt: (update.outcome === "advanced" ? now : (current?.updatedAt ?? now)).toISOString(),
          };
    if (update.outcome === "stale-generation") {
      throw new ConflictError(update.reason, { outcome: update.outcome, certificate: view(current) });
    }
    if (update.outcome !== "advanced") return { outcome: update.outcome, reason: update.reason, certificate: view(current) };
    const won = await swapCertificate(tx, input.source, current?.generation ?? 0, update.checkpoint!, now);
    if (!won) throw new ConflictError("another writer advanced this partition first: reread the winner", { outcome: "stale-generation" });
    return { outcome: update.outcome, reason: update.reason, certificate: view(update.checkpoint) };
  });
}
