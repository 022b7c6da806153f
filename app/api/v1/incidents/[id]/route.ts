import { IdParamsSchema, IncidentDetailSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { getIncident } from "@/lib/server/incidents/get-incident";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: IncidentDetailSchema, params: IdParamsSchema }, ({ params }) => getIncident(params.id));
