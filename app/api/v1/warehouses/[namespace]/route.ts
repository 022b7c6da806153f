import { PutWarehouseBodySchema, WarehouseConnectionViewSchema, WarehouseParamsSchema } from "@/lib/contracts/warehouses";
import { route } from "@/lib/server/http/route";
import { getWarehouseConnection, setWarehouseConnection } from "@/lib/server/warehouses/warehouse-connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: WarehouseConnectionViewSchema, params: WarehouseParamsSchema }, ({ params, actor }) =>
  getWarehouseConnection(params.namespace, actor),
);

/** Where the namespace's rows live, so cleaning a unit deletes them for real: admins only, audited. */
export const PUT = route(
  { response: WarehouseConnectionViewSchema, params: WarehouseParamsSchema, body: PutWarehouseBodySchema, role: "admin" },
  ({ params, body, actor }) => setWarehouseConnection(params.namespace, body, actor),
);
