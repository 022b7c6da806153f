import { logout } from "@/lib/server/http/auth-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = (req: Request) => logout(req);
