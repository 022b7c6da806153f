import { OrchestratorConnectionViewSchema, PipelineParamsSchema, PutOrchestratorBodySchema } from "@/lib/contracts/orchestrators";
import { route } from "@/lib/server/http/route";
import { getPipelineConnection, setPipelineConnection } from "@/lib/server/pipelines/orchestrator-connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: OrchestratorConnectionViewSchema, params: PipelineParamsSchema }, ({ params, actor }) =>
  getPipelineConnection(params.id, actor),
);

/** Where the pipeline's repairs run: admins only, audited; secrets are named, never sent. */
export const PUT = route(
  { response: OrchestratorConnectionViewSchema, params: PipelineParamsSchema, body: PutOrchestratorBodySchema, role: "admin" },
  ({ params, body, actor }) => setPipelineConnection(params.id, body, actor),
);
