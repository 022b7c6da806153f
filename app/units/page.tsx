import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { NotYetAvailable } from "@/components/shell/NotYetAvailable";

export const metadata: Metadata = { title: "Units" };

export default function Page() {
  return (
    <>
      <PageHeader title="Units" lead="The state of every expected unit of every dataset." />
      <NotYetAvailable what="The unit matrix" tracking="issue #4" />
    </>
  );
}
