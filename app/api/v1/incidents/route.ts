import { IncidentListQuerySchema, IncidentListSchema, OpenIncidentSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { listIncidents } from "@/lib/server/incidents/list-incidents";
import { openIncident } from "@/lib/server/incidents/open-incident";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: IncidentListSchema, query: IncidentListQuerySchema }, ({ query, actor }) => listIncidents(query, actor));
/** 201 with the new incident; 200 with the open incident that already holds every pair asked (no twin). */
export const POST = route({ body: OpenIncidentSchema, role: "operator" }, async ({ body, actor }) => {
  const incident = await openIncident(body, actor);
  return Response.json(incident, { status: incident.opened ? 201 : 200 });
});
