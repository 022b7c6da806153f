import { z } from "zod";
import { PartitionsPutSchema } from "@/lib/contracts/ingestion-catalog";
import { namespaceLimitedRefusal } from "@/lib/server/auth/roles";
import { ForbiddenError } from "@/lib/domain/errors";
import { route } from "@/lib/server/http/route";
import { setDatasetPartitions } from "@/lib/server/ingestion/set-dataset-partitions";

export const runtime = "nodejs";

/** `{id}`: the dataset's node id, or `<namespace>/<name>`, URL-encoded as one segment. */
export const PUT = route(
  { params: z.object({ id: z.string().min(1) }), body: PartitionsPutSchema, maxBodyBytes: 256 * 1024, tokens: ["ingest"] },
  async ({ params, body, actor }) => {
    const refused = namespaceLimitedRefusal(actor, "declaring partitions");
    if (refused) throw new ForbiddenError(refused);
    return setDatasetPartitions(params.id, body, actor);
  },
);
