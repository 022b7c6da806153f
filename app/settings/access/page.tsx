import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { AccessPage } from "@/components/access/AccessPage";

export const metadata: Metadata = { title: "Access" };

export default function Page() {
  return (
    <>
      <PageHeader title="Access" lead="Who may change what, and the tokens producers send. Every change is in the audit log." />
      <AccessPage />
    </>
  );
}
