import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/shell/PageHeader";
import { HistoryPage } from "@/components/history/HistoryPage";

export const metadata: Metadata = { title: "Repair history" };

export default function Page() {
  return (
    <>
      <PageHeader title="Repair history" lead="Every repair, its interventions and timings, and what keeps breaking." />
      <Suspense fallback={<div className="skeleton" aria-busy="true" />}>
        <HistoryPage />
      </Suspense>
    </>
  );
}
