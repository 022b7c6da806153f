import { OkSchema } from "@/lib/contracts/repair";
import { CommanderBodySchema, IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { assignCommander } from "@/lib/server/incidents/assign-commander";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Hands the incident to a commander (a registered operator or above); the opener commands until then. */
export const POST = route({ response: OkSchema, params: IdParamsSchema, body: CommanderBodySchema, role: "operator" }, ({ params, body, actor }) =>
  assignCommander(params.id, body, actor),
);
