import type { Overview } from "@/lib/contracts/overview";

const STATS: { key: keyof Overview["counts"]; label: string }[] = [
  { key: "openFailures", label: "open failures" },
  { key: "missingUnits", label: "units never published" },
  { key: "blockedUnits", label: "of them blocked upstream" },
  { key: "duplicateUnits", label: "units duplicated" },
  { key: "emptyUnits", label: "units empty" },
  { key: "divergentUnits", label: "units divergent" },
  { key: "suspectUnits", label: "units built on bad upstream" },
  { key: "invalidKeys", label: "invalid keys" },
];

export function StatRow({ counts }: { counts: Overview["counts"] }) {
  return (
    <section className="stats" aria-label="Summary">
      {STATS.map((s) => (
        <div className="stat" key={s.key} data-testid={`stat-${s.key}`}>
          <div className="value">{counts[s.key]}</div>
          <div className="label">{s.label}</div>
        </div>
      ))}
    </section>
  );
}
