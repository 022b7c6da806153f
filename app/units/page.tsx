import type { Metadata } from "next";
import { Suspense } from "react";
import { UnitsView } from "@/components/matrix/UnitsView";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Units" };

export default function Page() {
  return (
    <>
      <PageHeader title="Units" lead="The state of every expected unit of every dataset, from the publish ledger and the attempts." />
      <Suspense fallback={<div className="skeleton" style={{ height: 320 }} />}>
        <UnitsView />
      </Suspense>
    </>
  );
}
