import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/shell/PageHeader";
import { CompletenessPage } from "@/components/completeness/CompletenessPage";

export const metadata: Metadata = { title: "Completeness" };

export default function Page() {
  return (
    <>
      <PageHeader title="Completeness" lead="Is this number complete? A certificate over the set and everything it was built from, not the rows." />
      <Suspense fallback={<div className="skeleton" aria-busy="true" />}>
        <CompletenessPage />
      </Suspense>
    </>
  );
}
