import { IdParamsSchema } from "@/lib/contracts/incidents";
import { LaunchBodySchema } from "@/lib/contracts/repair";
import { route } from "@/lib/server/http/route";
import { launchRepair } from "@/lib/server/repair/launch-repair";
import { log } from "@/lib/server/observability/log";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The run continues in this server process after the 202; progress is polled.
export const POST = route({ params: IdParamsSchema, body: LaunchBodySchema, role: "operator" }, async ({ params, body, actor }) => {
  const { execution, ...launched } = await launchRepair(params.id, body, actor);
  void execution.catch((e: unknown) => log.error(`repair ${launched.runId} failed: ${(e as Error).message}`));
  return Response.json(launched, { status: 202 });
});
