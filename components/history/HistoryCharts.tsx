"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { OKABE_ITO as C } from "@/components/shell/okabe-ito";
import { INTERVENTION_KINDS, type History, type InterventionKind } from "@/lib/contracts/history";
import { CATEGORY_COLOURS, INTERVENTION_COLOURS } from "./chart-colours";
import styles from "./History.module.css";

function ChartCard({ title, sub, label, children }: { title: string; sub: string; label: string; children: React.ReactElement }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      <p className="sub">{sub}</p>
      <div className={styles.chart} role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </section>
  );
}

/** The manager's trends: how often, how long, what keeps breaking, compute saved, risky interventions. */
export function HistoryCharts({ data }: { data: History }) {
  const categories = [...new Set(data.offenders.flatMap((o) => Object.keys(o.categories)))].sort();
  const offenders = data.offenders.map((o) => ({ task: o.task.replace(/^job:/, ""), ...o.categories }));
  const compute = data.compute.map((c) => ({ week: c.week, targeted: c.unitsRecomputed, full: c.fullRerunUnits }));
  const interventions = data.interventions.map((w) => ({ week: w.week, ...w.counts }));
  return (
    <div className="grid cols-2">
      <ChartCard title="Repairs per week" sub="Repair runs started each ISO week." label="Repairs per week">
        <BarChart data={data.weekly}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="week" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} width={32} />
          <Tooltip />
          <Bar dataKey="repairs" name="repairs" fill={C.blue} isAnimationActive={false} />
        </BarChart>
      </ChartCard>
      <ChartCard
        title="Time to resolution"
        sub="Median and p90 hours from the incident's opening to its resolution, per week."
        label="Median and p90 time to resolution per week"
      >
        <LineChart data={data.weekly}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="week" tick={{ fontSize: 11 }} />
          <YAxis unit=" h" width={48} />
          <Tooltip />
          <Legend />
          <Line dataKey="medianResolutionHours" name="median" stroke={C.blue} isAnimationActive={false} connectNulls />
          <Line dataKey="p90ResolutionHours" name="p90" stroke={C.vermillion} strokeDasharray="5 3" isAnimationActive={false} connectNulls />
        </LineChart>
      </ChartCard>
      <ChartCard
        title="Repeat offenders"
        sub="Tasks repaired most, by the failure category of the attempts that failed."
        label="Repairs per task by failure category"
      >
        <BarChart data={offenders} layout="vertical">
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" allowDecimals={false} />
          <YAxis type="category" dataKey="task" width={150} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend />
          {categories.map((c) => (
            <Bar key={c} dataKey={c} stackId="c" fill={CATEGORY_COLOURS[c] ?? "#999999"} isAnimationActive={false} />
          ))}
        </BarChart>
      </ChartCard>
      <ChartCard
        title="Compute not wasted"
        sub="Units recomputed by targeted repairs each week vs what full re-runs of the same tasks would have recomputed."
        label="Units recomputed by targeted repairs vs full re-runs"
      >
        <BarChart data={compute}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="week" tick={{ fontSize: 11 }} />
          <YAxis width={72} tickFormatter={(v: number) => v.toLocaleString()} />
          <Tooltip />
          <Legend />
          <Bar dataKey="targeted" name="targeted repair" fill={C.bluishGreen} isAnimationActive={false} />
          <Bar dataKey="full" name="full re-run" fill="#94a3b8" isAnimationActive={false} />
        </BarChart>
      </ChartCard>
      <ChartCard
        title="Interventions by kind"
        sub="Repairs, cleanings, declarations, marks and overrides from the audit log, per week (sign-ins, people and connection edits are not interventions). Mark-success and skip are risks: the system believes something the data did not prove."
        label="Interventions by kind per week"
      >
        <BarChart data={interventions}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="week" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} width={32} />
          <Tooltip />
          <Legend itemSorter={null} />
          {data.interventionKinds.map((k) => (
            <Bar
              key={k}
              dataKey={k}
              name={INTERVENTION_KINDS[k as InterventionKind] ?? k}
              stackId="k"
              fill={INTERVENTION_COLOURS[k as InterventionKind] ?? "#999999"}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ChartCard>
    </div>
  );
}
