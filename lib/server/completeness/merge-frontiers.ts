import { formatBound, mergedFrontier } from "@/lib/domain/frontier";
import type { Frontier } from "@/lib/contracts/completeness";
import type { StoredCertificate } from "../repositories/completeness/frontier-certificates";

/**
 * Seed 002's merged frontier per source: the membership is every partition that ever
 * checkpointed, at the newest epoch any of them reached — so a partition still certified in an
 * older epoch keeps the answer a vector instead of silently dropping out of the minimum.
 */
export function mergeFrontiers(certificates: StoredCertificate[]): Frontier[] {
  const bySource = new Map<string, StoredCertificate[]>();
  for (const c of certificates) bySource.set(c.source, [...(bySource.get(c.source) ?? []), c]);
  return [...bySource]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([source, certs]) => {
      const epoch = Math.max(...certs.map((c) => c.epoch));
      const merged = mergedFrontier(certs, { epoch, partitions: [...new Set(certs.map((c) => c.partition))].sort() });
      const rows = certs.map((c) => ({
        partition: c.partition,
        coordinate: c.coordinate,
        inclusive: c.inclusive,
        domain: c.domain,
        generation: c.generation,
        epoch: c.epoch,
        updatedAt: c.updatedAt.toISOString(),
      }));
      if (merged.kind === "scalar") {
        const bound = formatBound(merged);
        const statement = `complete through ${merged.coordinate} (${merged.inclusive ? "inclusive" : "exclusive"}: every ${merged.domain} ${bound})`;
        return {
          kind: "scalar",
          source,
          coordinate: merged.coordinate,
          inclusive: merged.inclusive,
          domain: merged.domain,
          epoch,
          statement,
          certificates: rows,
        };
      }
      return { kind: "vector", source, reason: merged.reason, epoch, statement: `no single frontier: ${merged.reason}`, certificates: rows };
    });
}
