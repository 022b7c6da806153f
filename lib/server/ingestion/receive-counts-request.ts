// POST /api/v1/warehouse-counts answered in process lives in lib/server/http/ingestion-requests.ts.
// The repository tests of repair/, changed by others while this moved, import it from here
// still: this line goes once they import it from there.
export { receiveWarehouseCountsRequest } from "../http/ingestion-requests";
