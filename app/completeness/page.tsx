import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { NotYetAvailable } from "@/components/shell/NotYetAvailable";

export const metadata: Metadata = { title: "Completeness" };

export default function Page() {
  return (
    <>
      <PageHeader title="Completeness" lead="Is this number complete? A certificate over the set, not the rows." />
      <NotYetAvailable what="The completeness certificate" tracking="issue #7" />
    </>
  );
}
