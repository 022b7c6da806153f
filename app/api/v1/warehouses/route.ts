import { route } from "@/lib/server/http/route";
import { listWarehouseConnections } from "@/lib/server/warehouses/warehouse-connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every dataset namespace with its warehouse connection (connection strings by name only). */
export const GET = route({}, async ({ actor }) => ({ warehouses: await listWarehouseConnections(actor) }));
