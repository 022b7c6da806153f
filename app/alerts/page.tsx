import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { AlertsPage } from "@/components/alerts/AlertsPage";

export const metadata: Metadata = { title: "Alerts" };

export default function Page() {
  return (
    <>
      <PageHeader title="Alerts" lead="From the data, not only from tasks: missing, duplicated, empty, out-of-band, incomplete and stale units." />
      <AlertsPage />
    </>
  );
}
