import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { NotYetAvailable } from "@/components/shell/NotYetAvailable";

export const metadata: Metadata = { title: "Lineage" };

export default function Page() {
  return (
    <>
      <PageHeader title="Lineage" lead="Tasks and datasets across pipelines, with the downstream closure of a failure." />
      <NotYetAvailable what="The lineage graph with closure highlighting" tracking="issue #4" />
    </>
  );
}
