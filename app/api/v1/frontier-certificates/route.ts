import { FrontierCertificatePutSchema } from "@/lib/contracts/completeness";
import { putFrontierCertificate } from "@/lib/server/completeness/put-frontier-certificate";
import { namespaceLimitedRefusal } from "@/lib/server/auth/roles";
import { ForbiddenError } from "@/lib/domain/errors";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A paginated source reports one partition's complete-through certificate (compare-and-swap). */
export const PUT = route({ body: FrontierCertificatePutSchema, maxBodyBytes: 8_192, tokens: ["ingest"] }, async ({ body, actor }) => {
  const refused = namespaceLimitedRefusal(actor, "a frontier certificate");
  if (refused) throw new ForbiddenError(refused);
  return putFrontierCertificate(body, new Date());
});
