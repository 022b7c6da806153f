import { PageHeader } from "@/components/shell/PageHeader";
import { OverviewPage } from "@/components/overview/OverviewPage";

export default function Home() {
  return (
    <>
      <PageHeader title="Overview" lead="What is failing, missing, duplicated or empty right now — from the ledger, not the logs." />
      <OverviewPage />
    </>
  );
}
