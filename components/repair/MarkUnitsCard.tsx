"use client";

import { nodeName } from "@/lib/domain/ids";
import { useState } from "react";
import type { IncidentDetail } from "@/lib/contracts/incidents";
import { useMarkUnits } from "@/lib/client/incident-actions";
import { ConfirmIntervention } from "./ConfirmIntervention";
import { allows } from "./step-props";
import styles from "./Wizard.module.css";

const KIND = { mark_known_bad: "known_bad", skip_with_omission: "skipped", mark_success: "marked_success" } as const;
const BELIEVE: Record<keyof typeof KIND, string> = {
  mark_known_bad:
    "these units are wrong at the source: every consumer, the matrix and completeness show a gap instead of a number, until a later publish supersedes it.",
  skip_with_omission: "these units are omitted on purpose: the omission is recorded and stays visible in the matrix and in completeness forever.",
  mark_success:
    "these units were processed correctly: every future coverage query and backfill decision will believe it. The server checks a passing reconciliation first.",
};

/** Mark known-bad, skip or mark success for the incident's failed units (commanders only; checked on the server). */
export function MarkUnitsCard({ id, incident, strategy }: { id: string; incident: IncidentDetail; strategy: string }) {
  const mark = useMarkUnits(id);
  const [evidence, setEvidence] = useState("");
  const s = strategy as keyof typeof KIND;
  if (!allows(incident, "mark_units"))
    return (
      <p className="muted" data-testid="mark-units-closed">
        Marks are not possible while the incident is {incident.status}.
      </p>
    );
  return (
    <div style={{ marginTop: 12 }} data-testid="mark-units">
      {incident.failedPairs.map((p) => (
        <div key={p.nodeId} style={{ marginBottom: 8 }}>
          <p>
            <strong>{nodeName(p.nodeId)}</strong> <span className="mono">{p.units.join(", ")}</span>
          </p>
          <ConfirmIntervention
            testId={`mark-${KIND[s]}`}
            label={strategy.replace(/_/g, " ")}
            believe={BELIEVE[s]}
            pending={mark.isPending}
            error={mark.error}
            danger
            onConfirm={(reason) => mark.mutate({ kind: KIND[s], taskNodeId: p.nodeId, units: p.units, reason, ...(s === "mark_success" ? { evidence } : {}) })}
          >
            {s === "mark_success" ? (
              <label className={styles.field}>
                Evidence (e.g. the reconciliation you checked)
                <input value={evidence} onChange={(e) => setEvidence(e.target.value)} />
              </label>
            ) : null}
          </ConfirmIntervention>
        </div>
      ))}
      {mark.isSuccess ? <p className={styles.ok}>Recorded. The incident moves to validation, where marked units are accounted for.</p> : null}
    </div>
  );
}
