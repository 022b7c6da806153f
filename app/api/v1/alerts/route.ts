import { AlertsQuerySchema, AlertsSchema } from "@/lib/contracts/alerts";
import { listAlerts } from "@/lib/server/alerts/list-alerts";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: AlertsSchema, query: AlertsQuerySchema }, async ({ query, actor }) => listAlerts(new Date(), undefined, query, actor));
