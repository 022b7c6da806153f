import { LineageFailuresSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { listCurrentFailures } from "@/lib/server/lineage/list-current-failures";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: LineageFailuresSchema }, async () => ({ failures: await listCurrentFailures(new Date()) }));
