import { AutoIncidentsViewSchema, PutAutoIncidentsBodySchema } from "@/lib/contracts/auto-incidents";
import { PipelineParamsSchema } from "@/lib/contracts/orchestrators";
import { route } from "@/lib/server/http/route";
import { getAutoIncidents, putAutoIncidents } from "@/lib/server/pipelines/auto-incidents";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: AutoIncidentsViewSchema, params: PipelineParamsSchema }, ({ params }) => getAutoIncidents(params.id));

/** Incidents opened for you, per pipeline: a commander's call, audited with its reason. */
export const PUT = route(
  { response: AutoIncidentsViewSchema, params: PipelineParamsSchema, body: PutAutoIncidentsBodySchema, role: "commander" },
  ({ params, body, actor }) => putAutoIncidents(params.id, body, actor),
);
