import type { Metadata } from "next";
import { AuditPage } from "@/components/audit/AuditPage";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Audit log" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? "") : (v ?? ""));

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = await searchParams;
  return (
    <>
      <PageHeader title="Audit log" lead="Every intervention: who, when, why, on what, before and after — append-only and hash-chained." />
      <AuditPage initial={{ kind: one(q.kind), actor: one(q.actor), incidentId: one(q.incidentId) }} />
    </>
  );
}
