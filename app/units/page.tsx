import type { Metadata } from "next";
import { Suspense } from "react";
import { preload } from "react-dom";
import { matrixUrl } from "@/lib/client/api-urls";
import { UnitsView } from "@/components/matrix/UnitsView";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Units" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The unfiltered matrix is asked for while the page's scripts load (the page's hook then finds it
 * preloaded). A filtered view is fetched by the hook alone: its URL depends on how the client reads
 * the filters, and a preload of another URL would be a wasted request.
 */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  if (!["pipeline", "states", "from", "to"].some((k) => params[k] !== undefined)) preload(matrixUrl({}), { as: "fetch", crossOrigin: "anonymous" });
  return (
    <>
      <PageHeader title="Units" lead="The state of every expected unit of every dataset, from the publish ledger and the attempts." />
      <Suspense fallback={<div className="skeleton" style={{ height: 320 }} />}>
        <UnitsView />
      </Suspense>
    </>
  );
}
