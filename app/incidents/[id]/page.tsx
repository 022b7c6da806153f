import type { Metadata } from "next";
import { RepairWizard } from "@/components/repair/RepairWizard";

export const metadata: Metadata = { title: "Incident" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RepairWizard id={decodeURIComponent(id)} />;
}
