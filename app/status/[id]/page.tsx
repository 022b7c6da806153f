import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { DatasetStatusPage } from "@/components/status/DatasetStatusPage";

export const metadata: Metadata = { title: "Status" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const dataset = decodeURIComponent(id);
  return (
    <>
      <PageHeader title="Status" lead="Is this number whole, and if not, who is on it and since when — the line its badge shows on a dashboard." />
      <DatasetStatusPage dataset={dataset} />
    </>
  );
}
