import type { SeverityLevel } from "@/lib/contracts/incidents";
import styles from "./IncidentHeader.module.css";

const WORDS: Record<SeverityLevel, string> = {
  SEV1: "SEV1, the worst: something already left the platform",
  SEV2: "SEV2: read outside, critical or widely consumed",
  SEV3: "SEV3: some consumers or a sizeable closure",
  SEV4: "SEV4: small, nobody outside reads it",
};

/** The level as a badge, its colour doubled by its name (never colour alone); its meaning on hover, its reasons beside it. */
export function SeverityBadge({ level }: { level: SeverityLevel | null }) {
  if (!level)
    return (
      <span className="badge" title="Opened before severities were computed: scope it or set one">
        not assessed
      </span>
    );
  return (
    <span className={`badge ${styles[level]}`} title={WORDS[level]} data-testid="severity-badge">
      {level}
    </span>
  );
}
