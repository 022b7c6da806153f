import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { PipelineStatusPage } from "@/components/status/PipelineStatusPage";

export const metadata: Metadata = { title: "Pipeline status" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const pipeline = decodeURIComponent(id);
  return (
    <>
      <PageHeader title="Pipeline status" lead="Is what this pipeline writes whole? One line per dataset, the same as each dataset's own status page." />
      <PipelineStatusPage pipeline={pipeline} />
    </>
  );
}
