import { IncidentListQuerySchema, IncidentListSchema, OpenIncidentSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { listIncidents } from "@/lib/server/incidents/list-incidents";
import { openIncident } from "@/lib/server/incidents/open-incident";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: IncidentListSchema, query: IncidentListQuerySchema }, ({ query, actor }) => listIncidents(query, actor));
export const POST = route({ body: OpenIncidentSchema, role: "operator" }, async ({ body, actor }) =>
  Response.json(await openIncident(body, actor), { status: 201 }),
);
