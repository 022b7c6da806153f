import { z } from "zod";
import { TaskPropertiesPutSchema } from "@/lib/contracts/ingestion-catalog";
import { route } from "@/lib/server/http/route";
import { setTaskProperties } from "@/lib/server/ingestion/set-task-properties";

export const runtime = "nodejs";

/** `{id}`: the task's node id, or `<namespace>/<name>`, URL-encoded as one segment. */
export const PUT = route(
  { params: z.object({ id: z.string().min(1) }), body: TaskPropertiesPutSchema, maxBodyBytes: 64 * 1024 },
  async ({ params, body, actor }) => setTaskProperties(params.id, body, actor),
);
