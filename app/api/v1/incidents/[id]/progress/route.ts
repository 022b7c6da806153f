import { ProgressViewSchema } from "@/lib/contracts/repair";
import { IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { getProgress } from "@/lib/server/repair/get-progress";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: ProgressViewSchema, params: IdParamsSchema }, ({ params }) => getProgress(params.id));
