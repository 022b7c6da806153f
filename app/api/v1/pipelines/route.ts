import { route } from "@/lib/server/http/route";
import { listPipelineConnections } from "@/lib/server/pipelines/orchestrator-connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every pipeline with its orchestrator connection (secrets by name only). */
export const GET = route({}, async ({ actor }) => ({ pipelines: await listPipelineConnections(actor) }));
