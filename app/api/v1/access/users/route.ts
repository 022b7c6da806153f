import { AddUserSchema, UserListSchema, UserViewSchema } from "@/lib/contracts/access";
import { userAdded, usersList } from "@/lib/server/access/access-api";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: UserListSchema, role: "admin" }, async () => usersList());

export const POST = route({ response: UserViewSchema, role: "admin", body: AddUserSchema }, async ({ body, actor }) => userAdded(body, actor));
