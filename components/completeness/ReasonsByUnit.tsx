import type { Completeness } from "@/lib/contracts/completeness";
import { ReasonLinks } from "./ReasonLinks";
import { StateBadge } from "@/components/shell/StateBadge";
import styles from "./Completeness.module.css";
import { compositeKey } from "@/lib/domain/composite-key";

/** Every reason, grouped by unit key, headline first: what an analyst reads out in a meeting. */
export function ReasonsByUnit({ byUnit }: { byUnit: Completeness["byUnit"] }) {
  return (
    <section className="card" aria-labelledby="by-unit-title">
      <h2 id="by-unit-title">Reasons by unit</h2>
      <p className="sub">
        Each unit key that keeps the set from being complete, with the units of this dataset and of the upstream datasets it was built from.
      </p>
      <table className="data" data-testid="reasons-by-unit">
        <thead>
          <tr>
            <th>Unit</th>
            <th>Why</th>
            <th>Evidence</th>
          </tr>
        </thead>
        <tbody>
          {byUnit.map((u) => (
            <tr key={u.unitKey} data-testid={`reason-unit-${u.unitKey}`} className={u.reasons.some((r) => r.gap) ? styles.gap : undefined}>
              <td className="mono nowrap">{u.unitKey}</td>
              <td className={styles.headline} data-testid="unit-headline">
                {u.headline}
              </td>
              <td>
                <ul className={styles.reasonList}>
                  {u.reasons.map((r) => (
                    <li key={compositeKey(r.datasetNodeId, r.unitKey)}>
                      <strong>{r.datasetName}</strong> <StateBadge state={r.state} /> <span className="muted">{r.reason}</span> <ReasonLinks reason={r} />
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
