"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { counted } from "@/lib/domain/words";
import { historyUrl, useHistory, type HistoryFilters } from "@/lib/client/use-history";
import { formatDuration } from "./format-duration";
import { HistoryCharts } from "./HistoryCharts";
import { HistoryFiltersBar } from "./HistoryFiltersBar";
import { RepairsTable } from "./RepairsTable";
import styles from "./History.module.css";

const KEYS = ["pipeline", "task", "owner", "from", "to"] as const;

export function HistoryPage() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters: HistoryFilters = Object.fromEntries(KEYS.flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : [])));
  const { data, error, isPending } = useHistory(filters);
  const change = (next: HistoryFilters) => {
    const qs = new URLSearchParams(Object.entries(next).filter((e): e is [string, string] => Boolean(e[1]))).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname);
  };
  return (
    <>
      <HistoryFiltersBar filters={filters} options={data?.filters} csvHref={historyUrl(filters, "csv")} onChange={change} />
      {isPending ? (
        <div aria-busy="true" aria-label="Loading the repair history">
          <div className="skeleton" />
          <div className="skeleton" style={{ width: "60%" }} />
        </div>
      ) : error ? (
        <div className="error-box" role="alert">
          Could not load the repair history: {error.message}
        </div>
      ) : data.repairs.length === 0 ? (
        <p className="notice" data-testid="history-empty">
          No repair runs {Object.keys(filters).length ? "match these filters" : "yet"}. A repair appears here when an incident&apos;s guided repair launches one
          (a run of kind repair, linked to its incident and to the run it repairs); scheduled re-runs are not counted as repairs.
        </p>
      ) : (
        <>
          <div className="stats">
            <div className="stat" data-testid="stat-repairs">
              <div className="value">{data.totals.repairs}</div>
              <div className="label">
                {data.totals.repairs === 1 ? "repair run" : "repair runs"} ({counted(data.totals.incidents, "incident")})
              </div>
            </div>
            <div className="stat">
              <div className="value">{formatDuration(data.totals.medianResolutionMs)}</div>
              <div className="label">median time to resolution</div>
            </div>
            <div className="stat">
              <div className="value">{formatDuration(data.totals.p90ResolutionMs)}</div>
              <div className="label">p90 time to resolution</div>
            </div>
            <div className="stat">
              <div className="value">
                {data.totals.unitsRecomputed.toLocaleString()} / {data.totals.fullRerunUnits.toLocaleString()}
              </div>
              <div className="label">units recomputed / a full re-run&apos;s</div>
            </div>
            <div className="stat" data-testid="stat-risk">
              <div className={`value ${data.totals.markSuccess + data.totals.skips ? styles.risk : ""}`}>
                {data.totals.markSuccess} · {data.totals.skips}
              </div>
              <div className="label">mark-success · skip (risk)</div>
            </div>
          </div>
          <div className="grid">
            <HistoryCharts data={data} />
            <RepairsTable repairs={data.repairs} />
          </div>
        </>
      )}
    </>
  );
}
