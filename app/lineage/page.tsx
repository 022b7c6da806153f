import type { Metadata } from "next";
import { Suspense } from "react";
import { LineagePage } from "@/components/lineage/LineagePage";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Lineage" };

export default function Page() {
  return (
    <>
      <PageHeader title="Lineage" lead="Tasks and datasets across pipelines. Select a failed (task, unit) to light up its blast radius." />
      <Suspense fallback={<div className="skeleton" aria-label="Loading" />}>
        <LineagePage />
      </Suspense>
    </>
  );
}
