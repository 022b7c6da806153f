import { NameParamsSchema, ReasonSchema } from "@/lib/contracts/access";
import { tokenRevoked } from "@/lib/server/access/access-api";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ role: "admin", params: NameParamsSchema, body: ReasonSchema }, async ({ params, body, actor }) => tokenRevoked(params.name, body.reason, actor));
