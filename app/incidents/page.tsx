import type { Metadata } from "next";
import { IncidentsPage } from "@/components/incidents/IncidentsPage";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Incidents" };

export default function Page() {
  return (
    <>
      <PageHeader title="Incidents" lead="Each failure being handled, from scope to validated resolution." />
      <IncidentsPage />
    </>
  );
}
