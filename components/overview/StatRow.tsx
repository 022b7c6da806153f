import type { Overview } from "@/lib/contracts/overview";

/** Each count's words, singular and plural: "1 unit duplicated", "3 units duplicated". */
const STATS: { key: keyof Overview["counts"]; label: [string, string] }[] = [
  { key: "openFailures", label: ["open failure", "open failures"] },
  { key: "missingUnits", label: ["unit never published", "units never published"] },
  { key: "blockedUnits", label: ["of them blocked upstream", "of them blocked upstream"] },
  { key: "duplicateUnits", label: ["unit duplicated", "units duplicated"] },
  { key: "emptyUnits", label: ["unit empty", "units empty"] },
  { key: "divergentUnits", label: ["unit divergent", "units divergent"] },
  { key: "suspectUnits", label: ["unit built on a bad upstream unit", "units built on bad upstream units"] },
  { key: "invalidKeys", label: ["invalid key", "invalid keys"] },
];

export function StatRow({ counts }: { counts: Overview["counts"] }) {
  return (
    <section className="stats" aria-label="Summary">
      {STATS.map((s) => (
        <div className="stat" key={s.key} data-testid={`stat-${s.key}`}>
          <div className="value" data-testid="stat-value">
            {counts[s.key].toLocaleString("en-US")}
          </div>
          <div className="label">{s.label[counts[s.key] === 1 ? 0 : 1]}</div>
        </div>
      ))}
    </section>
  );
}
