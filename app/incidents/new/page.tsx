import type { Metadata } from "next";
import { NewIncidentForm } from "@/components/incidents/NewIncidentForm";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Open an incident" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(",") : (v ?? ""));

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = await searchParams;
  return (
    <>
      <PageHeader title="Open an incident" lead="For failed (task, unit) pairs: the guided repair starts from here." />
      <NewIncidentForm node={one(q.node)} units={one(q.units)} />
    </>
  );
}
