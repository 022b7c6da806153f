import { OkSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, NoteBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { addNote } from "@/lib/server/incidents/add-note";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: OkSchema, params: IdParamsSchema, body: NoteBodySchema, role: "operator" }, ({ params, body, actor }) =>
  addNote(params.id, body.note, actor),
);
