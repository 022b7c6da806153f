import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { NotYetAvailable } from "@/components/shell/NotYetAvailable";

export const metadata: Metadata = { title: "Repair history" };

export default function Page() {
  return (
    <>
      <PageHeader title="Repair history" lead="Every repair, its interventions and timings, and what keeps breaking." />
      <NotYetAvailable what="Repair history and its charts" tracking="issue #7" />
    </>
  );
}
