/** What a busy database means is read in db/db-errors.ts; the route answers it 503 with Retry-After. */
export { isDatabaseBusy } from "../db/db-errors";

export const BUSY_RETRY_AFTER_SECONDS = 2;
