import { route } from "@/lib/server/http/route";
import { getOverview } from "@/lib/server/overview/get-overview";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, async () => getOverview(new Date()));
