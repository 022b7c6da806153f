import { NodePeopleQuerySchema, NodePeopleSchema } from "@/lib/contracts/owners";
import { route } from "@/lib/server/http/route";
import { getNodePeople } from "@/lib/server/people/get-node-people";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: NodePeopleSchema, query: NodePeopleQuerySchema }, async ({ query }) => getNodePeople(query.nodeId));
