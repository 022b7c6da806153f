import { route } from "@/lib/server/http/route";
import { checkHealth } from "@/lib/server/health/check-health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ public: true }, async () => checkHealth());
