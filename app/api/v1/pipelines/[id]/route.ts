import { OrchestratorConnectionViewSchema, PipelineParamsSchema } from "@/lib/contracts/orchestrators";
import { route } from "@/lib/server/http/route";
import { getPipelineConnection } from "@/lib/server/pipelines/orchestrator-connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One pipeline, by its id, its name, or `<namespace>/<name>` (URL-encoded): where its repairs run. */
export const GET = route({ response: OrchestratorConnectionViewSchema, params: PipelineParamsSchema }, ({ params, actor }) =>
  getPipelineConnection(params.id, actor),
);
