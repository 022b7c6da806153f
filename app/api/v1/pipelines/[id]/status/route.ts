import { PipelineStatusParamsSchema, PipelineStatusSchema } from "@/lib/contracts/dataset-status";
import { getPipelineStatus } from "@/lib/server/completeness/get-pipeline-status";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A pipeline's status: each dataset's status line and the pipeline's; a minute old at most. */
export const GET = route({ params: PipelineStatusParamsSchema }, async ({ params }) => {
  const status = PipelineStatusSchema.parse(await getPipelineStatus(params.id, new Date()));
  return Response.json(status, { headers: { "cache-control": "private, max-age=60" } });
});
