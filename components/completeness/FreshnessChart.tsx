"use client";

import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Completeness } from "@/lib/contracts/completeness";
import { formatAge, freshnessBars, minBarPx } from "./freshness-bars";
import styles from "./Completeness.module.css";

const COLOUR = { fresher: "var(--state-repaired)", older: "var(--state-divergent)", normal: "#94a3b8" };

/**
 * Age per unit, not one number for the table (seed 000): after a targeted repair the period is
 * unevenly fresh, and the outlier — fresher or older than its neighbours — is the signal.
 */
export function FreshnessChart({ freshness }: { freshness: Completeness["freshness"] }) {
  const data = freshnessBars(freshness);
  return (
    <section className="card" aria-labelledby="freshness-title" data-testid="freshness">
      <h2 id="freshness-title">Freshness per unit</h2>
      <p className="sub">
        Age of each unit&apos;s latest publish. Median {freshness.medianAgeMs === null ? "—" : formatAge(freshness.medianAgeMs)}, range{" "}
        {freshness.minAgeMs === null ? "—" : `${formatAge(freshness.minAgeMs)} … ${formatAge(freshness.maxAgeMs!)}`}.
      </p>
      <div className={styles.chartWrap} role="img" aria-label={`Age in days of each of ${data.length} units`}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 20, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="unitKey" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis tick={{ fontSize: 11 }} unit=" d" width={56} />
            <Tooltip formatter={(v) => [typeof v === "number" ? `${v.toFixed(2)} days` : "not published", "age"]} />
            <Bar dataKey="days" isAnimationActive={false} minPointSize={(v) => minBarPx(v as number | null)}>
              {data.map((d) => (
                <Cell key={d.unitKey} fill={COLOUR[d.outlier ?? "normal"]} />
              ))}
              <LabelList dataKey="label" position="top" style={{ fontSize: 11, fill: "var(--ink)" }} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className={styles.legend}>
        <span>
          <span className={styles.swatch} style={{ background: COLOUR.normal }} />
          in line with neighbours
        </span>
        <span>
          <span className={styles.swatch} style={{ background: COLOUR.fresher }} />
          fresher than neighbours
        </span>
        <span>
          <span className={styles.swatch} style={{ background: COLOUR.older }} />
          older than neighbours
        </span>
      </div>
      {freshness.outliers.length > 0 ? (
        <ul data-testid="freshness-outliers">
          {freshness.outliers.map((o) => (
            <li key={o.unitKey}>
              <span className="mono">{o.unitKey}</span>: {formatAge(o.ageMs)} old, neighbours {formatAge(o.neighbourMedianAgeMs)} ({o.direction})
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No unit is out of line with its neighbours.</p>
      )}
      {freshness.unpublished.length > 0 ? (
        <p className="muted" data-testid="freshness-unpublished">
          Never published, so no age: {freshness.unpublished.join(", ")}
        </p>
      ) : null}
    </section>
  );
}
