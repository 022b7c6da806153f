import type { Metadata } from "next";
import { Suspense } from "react";
import { preload } from "react-dom";
import { lineageGraphUrl, lineageLayoutUrl } from "@/lib/client/api-urls";
import { LineagePage } from "@/components/lineage/LineagePage";
import { PageHeader } from "@/components/shell/PageHeader";

export const metadata: Metadata = { title: "Lineage" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The graph and its layout are asked for while the page's scripts load (the page's hooks then
 * find them preloaded): at 10,000 nodes, hydration takes ~1 s before the hooks could ask.
 */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : "");
  const asOf = one(params.asOf);
  const fetchOptions = { as: "fetch", crossOrigin: "anonymous" } as const;
  preload(lineageGraphUrl(asOf), fetchOptions);
  preload(lineageLayoutUrl(asOf, one(params.collapsed).split(",").filter(Boolean)), fetchOptions);
  return (
    <>
      <PageHeader title="Lineage" lead="Tasks and datasets across pipelines. Select a failed (task, unit) to light up its blast radius." />
      <Suspense fallback={<div className="skeleton" aria-label="Loading" />}>
        <LineagePage />
      </Suspense>
    </>
  );
}
