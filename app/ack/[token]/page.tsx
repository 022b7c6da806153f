import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AckParamsSchema } from "@/lib/contracts/notices";
import { NotFoundError } from "@/lib/domain/errors";
import { PageHeader } from "@/components/shell/PageHeader";
import { AcknowledgeNotice } from "@/components/notices/AcknowledgeNotice";
import { readAcknowledgement } from "@/lib/server/notify/acknowledge-notice";

export const metadata: Metadata = { title: "Acknowledge" };

/** The link a notice carries: what it acknowledges, and the button. An unknown or malformed token is this console's 404 page. */
export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const parsed = AckParamsSchema.safeParse(await params);
  if (!parsed.success) notFound();
  const view = await readAcknowledgement(parsed.data.token).catch((e: unknown) => {
    if (e instanceof NotFoundError) return null;
    throw e;
  });
  if (view === null) notFound();
  return (
    <>
      <PageHeader
        title="Acknowledge"
        lead="You were told about units of your data being wrong. Say you have read it: the incident's commander sees who did and when."
      />
      <AcknowledgeNotice token={parsed.data.token} initial={view} />
    </>
  );
}
