import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { NotYetAvailable } from "@/components/shell/NotYetAvailable";

export const metadata: Metadata = { title: "Audit log" };

export default function Page() {
  return (
    <>
      <PageHeader title="Audit log" lead="Every intervention: who, when, why, on what, before and after." />
      <NotYetAvailable what="The audit log view" tracking="issue #6" />
    </>
  );
}
