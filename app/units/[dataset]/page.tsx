import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { UnitsView } from "@/components/matrix/UnitsView";
import { PageHeader } from "@/components/shell/PageHeader";

type Props = { params: Promise<{ dataset: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const nodeId = decodeURIComponent((await params).dataset);
  return { title: `Units of ${nodeId.split(":").pop()}` };
}

export default async function Page({ params }: Props) {
  const nodeId = decodeURIComponent((await params).dataset);
  return (
    <>
      <PageHeader
        title={nodeId.split(":").pop() ?? nodeId}
        lead={
          <>
            <span className="mono wrap-anywhere">{nodeId}</span> · <Link href="/units">all datasets</Link>
          </>
        }
      />
      <Suspense fallback={<div className="skeleton" style={{ height: 200 }} />}>
        <UnitsView dataset={nodeId} />
      </Suspense>
    </>
  );
}
