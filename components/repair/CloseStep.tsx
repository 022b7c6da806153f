"use client";

import { nodeName } from "@/lib/domain/ids";
import Link from "next/link";
import { useAbandonIncident, useAddNote } from "@/lib/client/incident-actions";
import { ConfirmIntervention } from "./ConfirmIntervention";
import { StepActions } from "./StepActions";
import { allows, type StepProps } from "./step-props";
import { formatSpan as duration } from "@/components/history/format-duration";

/** Step 8: summary, who did what, and the way out for an incident that will not be repaired. */
export function CloseStep({ id, incident, back }: StepProps) {
  const abandon = useAbandonIncident(id);
  const note = useAddNote(id);
  const people = [...new Set(incident.timeline.map((e) => `${e.actor} (${e.actorRole})`))];
  return (
    <>
      <dl style={{ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "4px 16px" }} data-testid="close-summary">
        <dt>Status</dt>
        <dd data-testid="close-status">
          {incident.status}
          {incident.closedReason ? ` — ${incident.closedReason}` : ""}
        </dd>
        <dt>Failed pairs</dt>
        <dd className="mono">{incident.failedPairs.map((p) => `${nodeName(p.nodeId)} ${p.units.join(", ")}`).join("; ")}</dd>
        <dt>Detected → opened</dt>
        <dd>{duration(incident.detectedAt, incident.openedAt)}</dd>
        <dt>Opened → closed</dt>
        <dd>{duration(incident.openedAt, incident.resolvedAt)}</dd>
        <dt>Repair runs</dt>
        <dd>
          {incident.runs
            .filter((r) => r.kind === "repair")
            .map((r) => `#${r.repairNumber} ${r.status}`)
            .join(", ") || "none"}
        </dd>
        <dt>Who</dt>
        <dd>{people.join(", ")}</dd>
        <dt>Interventions</dt>
        <dd>
          {incident.timeline.length} recorded · <Link href={`/audit?incidentId=${encodeURIComponent(id)}`}>in the audit log →</Link>
        </dd>
      </dl>
      {allows(incident, "add_note") ? (
        <ConfirmIntervention
          testId="note"
          label="Add a note"
          pending={note.isPending}
          error={note.error}
          believe="nothing changes; the note joins the timeline."
          onConfirm={(reason) => note.mutate({ note: reason })}
        />
      ) : null}
      {allows(incident, "abandon") ? (
        <div style={{ marginTop: 8 }}>
          <ConfirmIntervention
            testId="abandon"
            label="Abandon the incident"
            danger
            pending={abandon.isPending}
            error={abandon.error}
            believe="this failure will not be repaired here: the incident closes as abandoned, and its units keep whatever state they are in."
            onConfirm={(reason) => abandon.mutate({ reason })}
          />
        </div>
      ) : null}
      <StepActions back={back} />
    </>
  );
}
