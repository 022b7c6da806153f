import { OverviewSchema } from "@/lib/contracts/overview";
import { route } from "@/lib/server/http/route";
import { getOverview } from "@/lib/server/overview/get-overview";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: OverviewSchema }, async () => getOverview(new Date()));
