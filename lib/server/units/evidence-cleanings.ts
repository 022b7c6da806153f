import type { Tx } from "../repositories/database";
import { appendAudit } from "../audit/append-audit";
import type { CountRow } from "../repositories/ledger/row-counts";
import { incidentsOfEntries } from "../repositories/audit/audit-log";
import { evidenceDeclaredCleanings, lockCleanings } from "../repositories/repair/unit-interventions";

/**
 * A unit counted empty in its warehouse evidences a cleaning an operator declared for it (seed
 * 001: the console believes only measured cleanings): each declaration so evidenced is believed
 * from the count's measuredAt, with its audit entry, in this transaction.
 */
export async function evidenceCleanings(
  tx: Tx,
  zeros: readonly (CountRow & { source: string })[],
  datasets: ReadonlyMap<string, { id: string }>,
  submitter: { id: string; role: string } | null,
  now: Date,
): Promise<void> {
  if (zeros.length === 0) return;
  await lockCleanings(
    tx,
    zeros.map((z) => z.datasetId),
  );
  const evidenced = await evidenceDeclaredCleanings(tx, zeros, now);
  if (evidenced.length === 0) return;
  const nodeIdOf = new Map([...datasets].map(([nodeId, d]) => [d.id, nodeId]));
  const declarations = await incidentsOfEntries(
    tx,
    evidenced.map((e) => e.auditEntryId),
  );
  for (const e of evidenced) {
    const source = zeros.find((z) => z.datasetId === e.datasetId && z.unitKey === e.unitKey)?.source ?? "";
    await appendAudit(
      tx,
      {
        kind: "unit.clean_evidenced",
        actor: submitter?.id ?? "api",
        actorRole: submitter?.role ?? "operator",
        incidentId: declarations.get(e.auditEntryId) ?? null,
        reason: `a warehouse count found 0 rows in ${e.unitKey} at ${e.measuredAt.toISOString()}${source ? ` (${source.slice(0, 200)})` : ""}: the cleaning declared in entry #${e.auditEntryId} is believed from then`,
        targets: [{ nodeId: nodeIdOf.get(e.datasetId) ?? e.datasetId, units: [e.unitKey] }],
        before: { evidencedAt: e.previous?.toISOString() ?? null },
        after: { evidencedAt: e.measuredAt.toISOString(), declaredIn: e.auditEntryId, rows: 0, source },
      },
      now,
    );
  }
}
