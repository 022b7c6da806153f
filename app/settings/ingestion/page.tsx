import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { NotYetAvailable } from "@/components/shell/NotYetAvailable";

export const metadata: Metadata = { title: "Ingestion" };

export default function Page() {
  return (
    <>
      <PageHeader title="Ingestion" lead="Point your orchestrator's OpenLineage client, dbt artifacts or publish ledger at Reparo." />
      <NotYetAvailable what="The ingestion endpoints and their settings page" tracking="issue #5" />
    </>
  );
}
