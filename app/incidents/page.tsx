import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { NotYetAvailable } from "@/components/shell/NotYetAvailable";

export const metadata: Metadata = { title: "Incidents" };

export default function Page() {
  return (
    <>
      <PageHeader title="Incidents" lead="Each failure being handled, from scope to validated resolution." />
      <NotYetAvailable what="The guided repair wizard and incident timeline" tracking="issue #6" />
    </>
  );
}
