import type { Metadata } from "next";
import type { ReactNode } from "react";
import { RepairWizard } from "@/components/repair/RepairWizard";

export const metadata: Metadata = { title: "Incident" };

/**
 * The guided repair of one incident: /incidents/{id} opens where the next decision is, and each
 * step has its own URL (/incidents/{id}/{step}). The wizard is the layout, so what was chosen on
 * one step is kept while moving to another; the step pages render nothing of their own.
 */
export default async function Layout({ params, children }: { params: Promise<{ id: string }>; children: ReactNode }) {
  const { id } = await params;
  return (
    <>
      <RepairWizard id={decodeURIComponent(id)} />
      {children}
    </>
  );
}
