import type { RepairRow } from "@/lib/contracts/history";

const COLUMNS: [string, (r: RepairRow) => string | number | null][] = [
  ["repair_run_id", (r) => r.runId],
  ["repair_number", (r) => r.repairNumber],
  ["status", (r) => r.status],
  ["pipeline", (r) => r.pipeline],
  ["root_run_id", (r) => r.rootRunId],
  ["incident_id", (r) => r.incident?.id ?? null],
  ["incident_title", (r) => r.incident?.title ?? null],
  ["tasks", (r) => r.tasks.join(" ")],
  ["owners", (r) => r.owners.join(" ")],
  ["failure_categories", (r) => r.failureCategories.join(" ")],
  ["failure_at", (r) => r.failureAt],
  ["detected_at", (r) => r.detectedAt],
  ["opened_at", (r) => r.openedAt],
  ["repair_started_at", (r) => r.repairStartedAt],
  ["repair_ended_at", (r) => r.repairEndedAt],
  ["validated_at", (r) => r.validatedAt],
  ["resolved_at", (r) => r.resolvedAt],
  ["time_to_detect_s", (r) => seconds(r.timeToDetectMs)],
  ["time_to_repair_s", (r) => seconds(r.timeToRepairMs)],
  ["time_to_validate_s", (r) => seconds(r.timeToValidateMs)],
  ["time_to_resolution_s", (r) => seconds(r.timeToResolutionMs)],
  ["units_recomputed", (r) => r.unitsRecomputed],
  ["full_rerun_units", (r) => r.fullRerunUnits],
];

function seconds(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms / 1000);
}

/** RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside. */
function field(value: string | number | null): string {
  if (value === null) return "";
  const s = String(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet: prefix it.
  const safe = /^[=+\-@]/.test(s) && typeof value === "string" ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function repairsToCsv(rows: RepairRow[]): string {
  return [COLUMNS.map(([name]) => name).join(","), ...rows.map((r) => COLUMNS.map(([, get]) => field(get(r))).join(","))].join("\r\n") + "\r\n";
}
