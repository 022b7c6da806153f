import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { IngestionPage } from "@/components/ingestion/IngestionPage";

export const metadata: Metadata = { title: "Ingestion" };

export default function Page() {
  return (
    <>
      <PageHeader title="Ingestion" lead="Point your orchestrator's OpenLineage client at Reparo; see what arrived and what was refused." />
      <IngestionPage />
    </>
  );
}
