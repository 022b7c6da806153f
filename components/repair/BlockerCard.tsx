"use client";

import { nodeName } from "@/lib/domain/ids";
import type { IncidentDetail } from "@/lib/contracts/incidents";
import type { BlockerView } from "@/lib/contracts/repair";
import { useCleanUnit, useDeclareCleaned, useDeclareReplace, useDeclareTaskFacts, useRecordScope } from "@/lib/client/incident-actions";
import { useState } from "react";
import { ConfirmIntervention } from "./ConfirmIntervention";
import { allows } from "./step-props";
import styles from "./Wizard.module.css";
import { counted } from "@/lib/domain/words";

const short = nodeName;

/**
 * A blocker and the intervention that lifts it: clean an appended unit, declare the task fixed to
 * replace, declare an unknown fact, or add the failed upstream units the plan waits on.
 */
export function BlockerCard({ id, incident, blocker }: { id: string; incident: Pick<IncidentDetail, "allowedActions">; blocker: BlockerView }) {
  const clean = useCleanUnit(id);
  const declare = useDeclareReplace(id);
  const declareCleaned = useDeclareCleaned(id);
  const declareFact = useDeclareTaskFacts();
  const rescope = useRecordScope(id);
  const [statement, setStatement] = useState("");
  const r = blocker.resolution;
  const undeclared = r?.rowsInUnits.filter((u) => !u.declared).map((u) => u.unitKey) ?? [];
  return (
    <div className={styles.blocker} data-testid={`blocker-${blocker.code}`}>
      <p style={{ marginTop: 0 }}>
        <strong>{blocker.code.replace(/_/g, " ")}</strong>: {blocker.message}
      </p>
      {blocker.declare && blocker.node && allows(incident, "declare_replace") ? (
        <div className={styles.declareFact} data-testid={`declare-${blocker.declare.fact}`}>
          {blocker.declare.choices.map((choice) => (
            <ConfirmIntervention
              key={String(choice)}
              testId={`declare-${blocker.declare!.fact}-${String(choice)}`}
              label={`${short(blocker.node!)}: ${FACT_WORDS[blocker.declare!.fact](choice)}`}
              pending={declareFact.isPending}
              error={declareFact.error}
              believe={
                <>
                  {short(blocker.node!)} {FACT_WORDS[blocker.declare!.fact](choice)} — every run, not only this repair. It is recorded as declared by you, and
                  no producer&apos;s facet or manifest overrides it.
                </>
              }
              onConfirm={(reason) => declareFact.mutate({ taskNodeId: blocker.node!, [blocker.declare!.fact]: choice, reason })}
            />
          ))}
        </div>
      ) : null}
      {r?.kind === "clean_unit" ? (
        <>
          {r.cleanable && !r.cleanable.possible ? (
            <p className="muted" data-testid="not-cleanable">
              Reparo cannot clean these units itself: {r.cleanable.why}.
            </p>
          ) : null}
          {r.cleanable?.statement ? (
            <p className="muted">
              Cleaning runs, in one warehouse transaction that counts the rows before and after: <code className="mono">{r.cleanable.statement}</code>
            </p>
          ) : null}
          <ul style={{ listStyle: "none", padding: 0, display: "grid", gap: 8 }}>
            {r.rowsInUnits.map((u) => (
              <li key={u.unitKey} data-testid={`append-unit-${u.unitKey}`}>
                <span className="mono">
                  {short(r.taskNodeId)} {u.unitKey}
                </span>
                :{" "}
                {u.rows === null ? (
                  <strong data-testid="rows-in-unit">rows unknown (the warehouse is not connected)</strong>
                ) : (
                  <>
                    <strong data-testid="rows-in-unit">
                      {u.rows} {u.rows === 1 ? "row" : "rows"} {u.countedBy === "team" ? "at the team's last count" : "already in the unit"}
                    </strong>
                    {u.countedBy === "team" && u.countedAt
                      ? ` (counted ${u.countedAt.slice(0, 16).replace("T", " ")} UTC)`
                      : u.rows > 0
                        ? " (left by the failed attempts)"
                        : " (nothing to remove)"}
                  </>
                )}{" "}
                {u.declared ? (
                  <span data-testid={`declared-${u.unitKey}`} style={{ display: "block" }}>
                    Declared cleaned outside Reparo {u.declared.at.slice(0, 16).replace("T", " ")} UTC (audit #{u.declared.auditSeq}):{" "}
                    {u.declared.awaiting ? <>not believed yet — {u.declared.awaiting}.</> : "a count shows it empty."}
                  </span>
                ) : null}
                {r.cleanable?.possible && allows(incident, "clean_unit") ? (
                  <ConfirmIntervention
                    testId={`clean-${u.unitKey}`}
                    label={`Clean ${u.unitKey}`}
                    pending={clean.isPending}
                    error={clean.error}
                    danger
                    believe={
                      <>
                        the {u.rows ?? "unknown number of"} rows of {short(r.taskNodeId)} {u.unitKey} are deleted from the warehouse now, so the repair&apos;s
                        append writes exactly one copy. Until it runs, the unit holds nothing.
                      </>
                    }
                    onConfirm={(reason) => clean.mutate({ taskNodeId: r.taskNodeId, unitKey: u.unitKey, reason })}
                  />
                ) : null}
              </li>
            ))}
          </ul>
          {r.cleanable && !r.cleanable.possible ? (
            <>
              {undeclared.length > 0 && allows(incident, "declare_cleaned") ? (
                <ConfirmIntervention
                  testId="declare-cleaned"
                  label={undeclared.length === 1 ? `Declare ${undeclared[0]} cleaned by hand` : `Declare ${undeclared.length} units cleaned by hand`}
                  pending={declareCleaned.isPending}
                  error={declareCleaned.error}
                  danger
                  believe={
                    <>
                      someone removed every row of {short(r.taskNodeId)} {undeclared.join(", ")} in the warehouse. Reparo records your word but lifts the
                      blocker only when a count of each unit&apos;s rows, taken after its latest attempt, shows 0.
                    </>
                  }
                  onConfirm={(reason) => declareCleaned.mutate({ taskNodeId: r.taskNodeId, units: undeclared, reason, statement })}
                >
                  <label style={{ display: "grid", gap: 4, marginBottom: 6 }}>
                    <span>What you ran in the warehouse (kept in the audit log; Reparo never runs it)</span>
                    <textarea
                      className="mono"
                      rows={2}
                      value={statement}
                      onChange={(e) => setStatement(e.target.value)}
                      data-testid="declare-cleaned-statement"
                      style={{ width: "100%", boxSizing: "border-box" }}
                    />
                  </label>
                </ConfirmIntervention>
              ) : null}
              {r.rowsInUnits.some((u) => u.declared?.awaiting) && r.datasetNodeId ? (
                <div data-testid="count-evidence">
                  <p className="muted" style={{ marginBottom: 4 }}>
                    The evidence Reparo waits for: each unit&apos;s rows in the warehouse, counted now and sent by your pipeline or by hand (an ingest token or
                    the operator role). This page checks again every 10 s.
                  </p>
                  <pre className={styles.export}>
                    {countExample(
                      r.datasetNodeId,
                      r.rowsInUnits.filter((u) => u.declared?.awaiting).map((u) => u.unitKey),
                    )}
                  </pre>
                </div>
              ) : null}
            </>
          ) : null}
        </>
      ) : null}
      {r?.kind === "add_pairs" && allows(incident, "scope") ? (
        <ConfirmIntervention
          testId={`add-${short(r.taskNodeId)}`}
          label={`Add ${short(r.taskNodeId)} ${r.units.join(", ")} to this incident`}
          pending={rescope.isPending}
          error={rescope.error}
          believe={
            <>
              {short(r.taskNodeId)} {r.units.join(", ")} {r.units.length === 1 ? "is" : "are"} repaired by this incident too, with{" "}
              {r.units.length === 1 ? "its" : "their"} closure: the scope grows, and the plan is made again before it can be confirmed.
            </>
          }
          onConfirm={(reason) => rescope.mutate({ reason, addPairs: [{ taskNodeId: r.taskNodeId, units: r.units }] })}
        />
      ) : null}
      {r && r.kind !== "add_pairs" && allows(incident, "declare_replace") ? (
        <ConfirmIntervention
          testId="declare-replace"
          label={`Declare ${short(r.taskNodeId)} fixed to replace`}
          pending={declare.isPending}
          error={declare.error}
          believe={
            <>
              {short(r.taskNodeId)}&apos;s code now overwrites its unit instead of appending: every future run, not just this repair, replaces the unit. Only
              true if the code was changed.
            </>
          }
          onConfirm={(reason) => declare.mutate({ taskNodeId: r.taskNodeId, reason })}
        />
      ) : null}
    </div>
  );
}

/** What declaring each value of a fact says of the task, in words. */
const FACT_WORDS: Record<"writeMode" | "sideEffect" | "dependsOnOwnPast", (v: string | boolean) => string> = {
  writeMode: (v) => (v === "replace" ? "replaces its unit" : v === "merge" ? "merges into its unit on a key" : "appends to its unit"),
  sideEffect: (v) => (v === "none" ? "has no side effect outside the platform" : "sends something outside the platform"),
  dependsOnOwnPast: (v) => (v === false ? "computes each unit on its own" : "reads its own previous unit"),
};

/** The POST /api/v1/warehouse-counts request that evidences a declared cleaning (0 rows, counted after it). */
function countExample(datasetNodeId: string, units: string[]): string {
  const body = units.slice(0, 3).map((unitKey) => ({
    dataset: { nodeId: datasetNodeId },
    unitKey,
    rowCount: 0,
    measuredAt: "<now, ISO-8601>",
    source: "select count(*) … where <the unit>",
  }));
  return `curl -X POST "$REPARO_URL/api/v1/warehouse-counts" -H "authorization: Bearer $REPARO_TOKEN" \\\n  -H 'content-type: application/json' -d '${JSON.stringify(body)}'${units.length > 3 ? `\n# … and the other ${counted(units.length - 3, "unit")}` : ""}`;
}
