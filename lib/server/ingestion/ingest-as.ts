import type { Actor } from "../auth/roles";
import { getDb } from "../repositories/database";
import { receiveDbtImportRequest } from "./receive-dbt-import-request";
import { receiveLineageBatchRequest } from "./receive-lineage-batch-request";
import { receiveLineageRequest } from "./receive-lineage-request";
import { receivePublishesRequest } from "./receive-publishes-request";
import { receiveSourceCountsRequest, receiveWarehouseCountsRequest } from "./receive-counts-request";

/** The ingestion routes, as the request's actor: a namespace-limited token's items are checked one by one. */
export const ingestLineageAs = (req: Request, actor: Actor) => receiveLineageRequest(req, getDb(), new Date(), actor);
export const ingestLineageBatchAs = (req: Request, actor: Actor) => receiveLineageBatchRequest(req, getDb(), new Date(), actor);
export const ingestPublishesAs = (req: Request, actor: Actor) => receivePublishesRequest(req, getDb(), new Date(), actor);
export const ingestSourceCountsAs = (req: Request, actor: Actor) => receiveSourceCountsRequest(req, getDb(), new Date(), actor);
export const ingestWarehouseCountsAs = (req: Request, actor: Actor) => receiveWarehouseCountsRequest(req, getDb(), new Date(), actor);
export const ingestDbtAs = (req: Request, actor: Actor) => receiveDbtImportRequest(req, getDb(), new Date(), actor);
