import type { UnitState } from "@/lib/domain/unit-state";
import { STATE_PALETTE } from "./state-palette";
import styles from "./StateSwatch.module.css";

/** A state's colour with its mark (hatch, dot, bar, corner), as the matrix draws its cells. */
export function StateSwatch({ state }: { state: UnitState }) {
  const { colour, ink, mark } = STATE_PALETTE[state];
  return <span className={`${styles.swatch} ${styles[mark] ?? ""}`} style={{ backgroundColor: colour, color: ink }} data-mark={mark} aria-hidden />;
}
