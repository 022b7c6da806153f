import { ChangeUserSchema, RemovedUserSchema, UserIdParamsSchema, UserViewSchema } from "@/lib/contracts/access";
import { ReasonBodySchema } from "@/lib/contracts/reason";
import { userChanged, userRemoved } from "@/lib/server/access/access-api";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const PATCH = route({ response: UserViewSchema, role: "admin", params: UserIdParamsSchema, body: ChangeUserSchema }, async ({ params, body, actor }) =>
  userChanged(params.id, body, actor),
);

export const DELETE = route(
  { response: RemovedUserSchema, role: "admin", params: UserIdParamsSchema, body: ReasonBodySchema },
  async ({ params, body, actor }) => userRemoved(params.id, body.reason, actor),
);
