import { route } from "@/lib/server/http/route";
import { readMetrics } from "@/lib/server/observability/read-metrics";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Prometheus text exposition of this instance (docs/operations.md, "Metrics"). */
export const GET = route({ public: true }, async () => {
  const { body, contentType } = await readMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
