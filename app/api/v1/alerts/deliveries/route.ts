import { deliverAlerts } from "@/lib/server/alerts/deliver-alerts";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Sends the alerts the webhook has not acknowledged yet (operator). */
export const POST = route({ maxBodyBytes: 1_024, retryWhenBusy: false }, async () => deliverAlerts(new Date()));
