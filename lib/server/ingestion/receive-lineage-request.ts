// POST /api/v1/lineage answered in process lives in lib/server/http/ingestion-requests.ts. The
// repository tests of units/ and repair/, changed by others while this moved, import it from
// here still: this line goes once they import it from there.
export { receiveLineageRequest } from "../http/ingestion-requests";
