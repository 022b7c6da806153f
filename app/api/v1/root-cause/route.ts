import { RootCauseQuerySchema, RootCauseViewSchema } from "@/lib/contracts/root-cause";
import { route } from "@/lib/server/http/route";
import { getRootCause } from "@/lib/server/incidents/get-root-cause";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Where a symptom comes from, before an incident is opened on it (the incident form shows it). */
export const GET = route({ response: RootCauseViewSchema, query: RootCauseQuerySchema }, ({ query }) => getRootCause(query.taskNodeId, query.units));
