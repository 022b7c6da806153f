import { NameParamsSchema, TokenViewSchema } from "@/lib/contracts/access";
import { ReasonBodySchema } from "@/lib/contracts/reason";
import { tokenRevoked } from "@/lib/server/access/access-api";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: TokenViewSchema, role: "admin", params: NameParamsSchema, body: ReasonBodySchema }, async ({ params, body, actor }) =>
  tokenRevoked(params.name, body.reason, actor),
);
