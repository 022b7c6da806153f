import { CreateTokenSchema, TokenListSchema } from "@/lib/contracts/access";
import { tokenCreated, tokensList } from "@/lib/server/access/access-api";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: TokenListSchema, role: "admin" }, async () => tokensList());

/** The answer holds the token's secret, the only time it leaves the server. */
export const POST = route({ role: "admin", body: CreateTokenSchema }, async ({ body, actor }) =>
  Response.json(await tokenCreated(body, actor), { status: 201, headers: { "cache-control": "no-store" } }),
);
