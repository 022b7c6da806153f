"use client";

import Link from "next/link";
import type { RootCauseView } from "@/lib/contracts/root-cause";
import { nodeName } from "@/lib/domain/ids";
import styles from "./RootCause.module.css";

export type RootCauseChoice = "follow" | "as_given";

const pairsText = (pairs: RootCauseView["proposedPairs"]) => pairs.map((p) => `${nodeName(p.nodeId)} ${p.units.join(", ")}`).join("; ");

/**
 * Root cause first, before the incident is opened: what the units asked are (their states in the
 * matrix's words), what they come from, and which open incident already handles it. The choice
 * between the root cause and the units as given is the operator's; the root cause is the default.
 */
export function RootCausePanel({
  view,
  loading,
  error,
  choice,
  onChoice,
}: {
  view: RootCauseView | undefined;
  loading: boolean;
  error: string | null;
  choice: RootCauseChoice;
  onChoice: (c: RootCauseChoice) => void;
}) {
  if (loading) {
    return (
      <section className={styles.panel} aria-live="polite" aria-label="Where these units come from">
        <p className="muted">Looking upstream for the root cause…</p>
      </section>
    );
  }
  if (error || !view) {
    return error ? (
      <section className={styles.panel} aria-live="polite" aria-label="Where these units come from">
        <p className="muted">{error}</p>
      </section>
    ) : null;
  }
  const symptomName = nodeName(view.symptom.taskNodeId);
  // What is wrong is a dataset's units (what the alert and the matrix name); the task that writes them is said beside.
  const wrongIn = [...new Set(view.symptom.wrong.map((w) => w.datasetNodeId))];
  const wrongName = wrongIn.length === 1 ? nodeName(wrongIn[0]!) : symptomName;
  return (
    <section className={styles.panel} aria-live="polite" aria-label="Where these units come from" data-testid="root-cause">
      <h2>Where these units come from</h2>
      {view.symptom.wrong.length === 0 ? (
        <p data-testid="root-cause-sound">
          Nothing in the ledger is wrong with {symptomName} {view.symptom.units.join(", ")} now: the incident holds them as given.
        </p>
      ) : view.symptomIsRoot ? (
        <p data-testid="root-cause-self">
          {symptomName} {view.symptom.wrong.map((w) => `${w.key} (${w.words})`).join(", ")} is the root cause: nothing it reads is wrong.
        </p>
      ) : view.roots.length > 0 ? (
        <>
          <p>
            {wrongName} {view.symptom.wrong.map((w) => `${w.key} (${w.words})`).join(", ")}
            {wrongName !== symptomName ? `, written by ${symptomName},` : ""} is a symptom. Re-running {symptomName} alone would rebuild it on the same input.
            It comes from:
          </p>
          <ul data-testid="root-cause-roots">
            {view.roots.map((r) => (
              <li key={`${r.datasetNodeId}`}>
                <strong>{r.taskNodeId ? nodeName(r.taskNodeId) : nodeName(r.datasetNodeId)}</strong> {r.units.map((u) => `${u.key}: ${u.words}`).join("; ")}
                {r.taskNodeId ? null : " — a source nothing in the lineage writes"}
              </li>
            ))}
          </ul>
          {view.truncated ? <p className="muted">The walk stopped at its limit: there may be more causes further up.</p> : null}
          {view.followable ? (
            <fieldset className={styles.choice}>
              <legend className="sr-only">Open the incident on</legend>
              <label>
                <input type="radio" name="root-cause" checked={choice === "follow"} onChange={() => onChoice("follow")} />
                <span>
                  Open on the root cause: {pairsText(view.proposedPairs)}{" "}
                  <span className="muted">(recommended — {wrongName} stays in the title and timeline)</span>
                </span>
              </label>
              <label>
                <input type="radio" name="root-cause" checked={choice === "as_given"} onChange={() => onChoice("as_given")} />
                <span>
                  Open on the units as given: {symptomName} {view.symptom.units.join(", ")}
                </span>
              </label>
            </fieldset>
          ) : null}
        </>
      ) : null}
      {view.heldBy.length > 0 && (choice === "follow" || !view.followable) ? (
        <div className={styles.held} data-testid="root-cause-held">
          {view.heldBy.map((h) => (
            <p key={h.id}>
              Already handled by <Link href={`/incidents/${encodeURIComponent(h.id)}`}>{h.title}</Link>: it holds {pairsText(h.pairs)}.
            </p>
          ))}
          <p className="muted">Opening leaves those to it: one open incident per root cause.</p>
        </div>
      ) : null}
    </section>
  );
}
