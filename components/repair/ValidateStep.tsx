"use client";

import { Fragment } from "react";
import { useOverrideValidation, useResolveIncident } from "@/lib/client/incident-actions";
import { useValidation } from "@/lib/client/use-repair";
import { counted } from "@/lib/domain/words";
import { ConfirmIntervention } from "./ConfirmIntervention";
import { Name } from "@/components/shell/Name";
import { StateBadge } from "@/components/shell/StateBadge";
import { StepActions } from "./StepActions";
import { allows, type StepProps } from "./step-props";
import styles from "./Wizard.module.css";
import v from "./Validation.module.css";
import { compositeKey } from "@/lib/domain/composite-key";

// Each check's name in full (tooltip, screen readers) and as a short column header, so every
// column stays in view beside the timeline from 1280 px; on a phone each unit is a card, its
// checks labelled by their short names.
const CHECKS = [
  ["inLedger", "in the ledger", "ledger"],
  ["publishedOnce", "published once", "once"],
  ["nonEmpty", "non-empty", "rows"],
  ["reconciles", "reconciles with its source count", "source"],
  ["notStale", "not stale", "fresh"],
] as const;
const COLUMNS = 4 + CHECKS.length;

/**
 * "dim_customers@2026-08-18,stg_orders@1": wraps between its inputs, then inside an input only at
 * its name's separators or before its "@version" — never "raw_orders@" / "1".
 */
function InputVersion({ version }: { version: string | null }) {
  if (!version) return <>—</>;
  return version.split(",").map((v, i) => {
    const at = v.lastIndexOf("@");
    return (
      <Fragment key={i}>
        {i > 0 ? ", " : null}
        {at > 0 ? (
          <>
            <Name strong={false}>{v.slice(0, at)}</Name>
            <wbr />
            {v.slice(at)}
          </>
        ) : (
          <Name strong={false}>{v}</Name>
        )}
      </Fragment>
    );
  });
}

/** Why a unit fails validation: one reason on its line, several as a list. */
function Failures({ failures }: { failures: string[] }) {
  return (
    <div className={v.failures}>
      <span className={v.failuresHead}>Fails: </span>
      {failures.length === 1 ? (
        failures[0]
      ) : (
        <ul>
          {failures.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Step 6: the domain's validation per unit; resolving needs it to pass, or a commander's reasoned override. */
export function ValidateStep({ id, incident, next, back }: StepProps) {
  const { data, error, isPending } = useValidation(id);
  const resolve = useResolveIncident(id);
  const override = useOverrideValidation(id);
  if (isPending) return <div className="skeleton" aria-busy="true" />;
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not validate: {error.message}
      </div>
    );
  const uncounted = data.units.filter((u) => u.checks.nonEmpty === null).length;
  const unreconciled = data.units.filter((u) => u.checks.reconciles === null && u.checks.nonEmpty !== null).length;
  return (
    <>
      <p className={data.passed ? styles.ok : styles.blocker} data-testid="validation-verdict">
        {data.passed
          ? `Validation passes: ${data.units.length === 1 ? "the unit is" : `all ${counted(data.units.length, "unit")}`} in the ledger, published once${uncounted < data.units.length ? ", non-empty" : ""}, not stale${unreconciled + uncounted < data.units.length ? ", reconciled where a source count exists" : ""}.`
          : `${data.failedUnits} of ${counted(data.units.length, "unit")} fail${data.failedUnits === 1 ? "s" : ""} validation.`}
        {unreconciled > 0 ? ` ${counted(unreconciled, "unit")} had no source count to reconcile against.` : ""}
        {uncounted > 0
          ? ` ${counted(uncounted, "unit")} ${uncounted === 1 ? "was" : "were"} published without a row count: present, but neither counted nor reconciled.`
          : ""}
        {data.accountedByMarks > 0
          ? ` ${counted(data.accountedByMarks, "unit")} ${data.accountedByMarks === 1 ? "is" : "are"} accounted for by a recorded mark.`
          : ""}
      </p>
      {/* Focusable: should a narrow window still make it scroll, the keyboard scrolls it too. */}
      <div className={v.validation} role="region" aria-label="Validation of each unit" tabIndex={0}>
        <table className={`data ${v.validationTable}`} data-testid="validation-table">
          <thead>
            <tr>
              <th>Dataset</th>
              <th>Unit</th>
              <th>State</th>
              {CHECKS.map(([k, l, short]) => (
                <th key={k} className={v.checkHead}>
                  <abbr title={l} aria-label={l}>
                    {short}
                  </abbr>
                </th>
              ))}
              <th>Rows / source</th>
            </tr>
          </thead>
          {/* One body per unit: its row of checks, then what it was built from and why it fails, across the table's width. */}
          {data.units.map((u) => (
            <tbody key={compositeKey(u.datasetNodeId, u.unitKey)} data-testid={`validation-${u.name}-${u.unitKey}`} data-passed={u.passed}>
              <tr>
                <td className={v.unitName}>
                  <Name strong={false}>{u.name}</Name>
                </td>
                <td className="mono nowrap">{u.unitKey}</td>
                <td>
                  <StateBadge state={u.state} />
                </td>
                {CHECKS.map(([k, l, short]) => {
                  const ok = u.checks[k];
                  // Nothing to compare (no source count): neither a tick nor a cross.
                  return ok === null ? (
                    <td key={k} className={v.check} data-ok="none" data-label={short} title={`${l}: nothing to compare`}>
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">nothing to compare</span>
                    </td>
                  ) : (
                    <td key={k} className={v.check} data-ok={ok} data-label={short} title={l}>
                      {ok ? "✓" : "✗"}
                    </td>
                  );
                })}
                <td data-testid="rows" data-label="rows / source" className="nowrap">
                  {u.rowCount ?? "—"} / {u.sourceCount ?? "—"}
                </td>
              </tr>
              {u.inputVersion || u.failures.length ? (
                <tr className={v.details}>
                  <td colSpan={COLUMNS}>
                    {u.inputVersion ? (
                      <div className={v.built} data-testid="input-version">
                        Input version: <InputVersion version={u.inputVersion} />
                      </div>
                    ) : null}
                    {u.failures.length ? <Failures failures={u.failures} /> : null}
                  </td>
                </tr>
              ) : null}
            </tbody>
          ))}
        </table>
      </div>
      {allows(incident, "resolve") && data.passed ? (
        <ConfirmIntervention
          testId="resolve"
          label="Resolve the incident"
          pending={resolve.isPending}
          error={resolve.error}
          believe={
            <>
              the incident is over: its {counted(data.units.length, "unit")} {data.units.length === 1 ? "is" : "are"} correct, and the resolution is final.
            </>
          }
          onConfirm={(reason) => resolve.mutate({ reason }, { onSuccess: next })}
        />
      ) : null}
      {allows(incident, "override_validation") && !data.passed ? (
        <ConfirmIntervention
          testId="override"
          label="Override validation and resolve"
          danger
          pending={override.isPending}
          error={override.error}
          believe={
            <>
              the incident is resolved although {counted(data.failedUnits, "unit")} {data.failedUnits === 1 ? "fails" : "fail"} validation. The override is
              recorded against your name, and the failing units stay visible.
            </>
          }
          onConfirm={(reason) => override.mutate({ reason }, { onSuccess: next })}
        />
      ) : null}
      <StepActions back={back}>
        <button type="button" onClick={next}>
          Close →
        </button>
      </StepActions>
    </>
  );
}
