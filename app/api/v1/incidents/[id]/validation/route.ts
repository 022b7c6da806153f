import { IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { validateIncident } from "@/lib/server/repair/validate-incident";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: IdParamsSchema }, ({ params }) => validateIncident(params.id));
