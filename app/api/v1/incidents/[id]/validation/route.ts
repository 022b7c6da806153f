import { ValidationViewSchema } from "@/lib/contracts/repair";
import { IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { validateIncident } from "@/lib/server/repair/validate-incident";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: ValidationViewSchema, params: IdParamsSchema }, ({ params }) => validateIncident(params.id));
