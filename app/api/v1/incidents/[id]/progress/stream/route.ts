import { IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { requireIncidentExists } from "@/lib/server/repair/get-progress";
import { progressStream } from "@/lib/server/repair/progress-stream";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Live per-unit progress of the incident's latest repair, as server-sent events (`progress`, then `end`). */
export const GET = route({ params: IdParamsSchema }, async ({ params, req }) => {
  await requireIncidentExists(params.id);
  return new Response(progressStream(params.id, req.signal), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
