import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton } from "../runtime/process-singleton";

/**
 * Prometheus metrics of this instance (GET /api/metrics): request latency by route, ingestion,
 * and — read from the database and the queue at scrape time — queue depth, repair runs by status
 * and the unit-state service's lag. Labels are route templates and closed vocabularies only.
 */
interface Metrics {
  registry: Registry;
  requestSeconds: Histogram<"method" | "route" | "status">;
  ingested: Counter<"kind" | "outcome">;
  queueDepth: Gauge<"queue" | "state">;
  repairRuns: Gauge<"status">;
  unitStateLag: Gauge;
  foldPending: Gauge;
  foldLagSeconds: Gauge;
  folded: Counter;
  foldSeconds: Histogram;
}

export function metrics(): Metrics {
  return processSingleton("metrics", createMetrics);
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "reparo_" });
  const m: Metrics = {
    registry,
    requestSeconds: new Histogram({
      name: "reparo_http_request_duration_seconds",
      help: "API request latency by route template",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    ingested: new Counter({
      name: "reparo_ingested_total",
      help: "Items received by the ingestion routes (events, publishes, source counts), by outcome",
      labelNames: ["kind", "outcome"],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: "reparo_job_queue_jobs",
      help: "Background jobs by queue and state (queued, active)",
      labelNames: ["queue", "state"],
      registers: [registry],
    }),
    repairRuns: new Gauge({ name: "reparo_repair_runs", help: "Repair runs by status", labelNames: ["status"], registers: [registry] }),
    unitStateLag: new Gauge({
      name: "reparo_unit_state_lag_changes",
      help: "Changes recorded that this instance's unit states do not include yet (-1: not computed yet)",
      registers: [registry],
    }),
    foldPending: new Gauge({
      name: "reparo_ingest_fold_pending_events",
      help: "Accepted events not folded yet (deferred folding; 0 when folding is inline)",
      registers: [registry],
    }),
    foldLagSeconds: new Gauge({
      name: "reparo_ingest_fold_lag_seconds",
      help: "How long the oldest accepted event not folded yet has waited (0: none waits)",
      registers: [registry],
    }),
    folded: new Counter({ name: "reparo_ingest_folded_events_total", help: "Queued events this instance folded", registers: [registry] }),
    foldSeconds: new Histogram({
      name: "reparo_ingest_fold_step_seconds",
      help: "Duration of one fold step (up to 2,000 queued events in one transaction)",
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
  return m;
}

/** The route template of a request path: each dynamic segment's value replaced by its name. */
export function routeTemplate(pathname: string, params: Record<string, string | string[]> | undefined): string {
  if (!params) return pathname;
  const byValue = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) for (const v of Array.isArray(value) ? value : [value]) byValue.set(v, name);
  return pathname
    .split("/")
    .map((seg) => {
      let decoded = seg;
      try {
        decoded = decodeURIComponent(seg);
      } catch {
        // proxy.ts answers malformed encodings 400 before a route runs
      }
      const name = byValue.get(decoded) ?? byValue.get(seg);
      return name ? `[${name}]` : seg;
    })
    .join("/");
}
