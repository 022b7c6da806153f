import { DatasetOptionsSchema } from "@/lib/contracts/completeness";
import { listDatasetOptions } from "@/lib/server/completeness/list-dataset-options";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: DatasetOptionsSchema }, async () => listDatasetOptions(new Date()));
