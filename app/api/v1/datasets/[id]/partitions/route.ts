import { z } from "zod";
import { PartitionsPutSchema } from "@/lib/contracts/ingestion-catalog";
import { route } from "@/lib/server/http/route";
import { setDatasetPartitions } from "@/lib/server/ingestion/set-dataset-partitions";

export const runtime = "nodejs";

/** `{id}`: the dataset's node id, or `<namespace>/<name>`, URL-encoded as one segment. */
export const PUT = route({ params: z.object({ id: z.string().min(1) }), body: PartitionsPutSchema, maxBodyBytes: 256 * 1024 }, async ({ params, body, actor }) =>
  setDatasetPartitions(params.id, body, actor),
);
