import { OKABE_ITO as C } from "@/components/shell/okabe-ito";
import type { InterventionKind } from "@/lib/contracts/history";

/** One colour per intervention kind, fixed (never by position) and never reused; the risks are the warm ones. */
export const INTERVENTION_COLOURS: Record<InterventionKind, string> = {
  "repair.launched": C.blue,
  "unit.deduplicated": C.bluishGreen,
  "unit.clean_declared": C.skyBlue,
  "task.declared_replace": C.yellow,
  "unit.marked_known_bad": C.black,
  "validation.overridden": C.reddishPurple,
  "unit.skipped": C.orange,
  "unit.marked_success": C.vermillion,
};
/** Failure categories of the repeat offenders: eight colours for the seven rules and "other"; "unknown" is grey. */
export const CATEGORY_COLOURS: Record<string, string> = {
  connection: C.blue,
  throttling: C.orange,
  timeout: C.skyBlue,
  schema: C.reddishPurple,
  "data quality": C.vermillion,
  resources: C.bluishGreen,
  permissions: C.yellow,
  other: C.black,
  unknown: "#999999",
};
