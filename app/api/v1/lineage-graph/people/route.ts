import { ClosureQuerySchema } from "@/lib/contracts/lineage";
import { ClosurePeopleSchema } from "@/lib/contracts/owners";
import { route } from "@/lib/server/http/route";
import { getClosurePeople } from "@/lib/server/people/get-node-people";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: ClosurePeopleSchema, query: ClosureQuerySchema }, async ({ query, req }) =>
  getClosurePeople(query, new Date(), undefined, req.signal),
);
