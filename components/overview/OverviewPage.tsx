"use client";

import { useOverview } from "@/lib/client/use-overview";
import { FailuresCard } from "./FailuresCard";
import { FindingsCard } from "./FindingsCard";
import { InvalidKeysCard } from "./InvalidKeysCard";
import { StatRow } from "./StatRow";
import { StatesNotice } from "@/components/shell/StatesNotice";

export function OverviewPage() {
  const { data, error, isPending } = useOverview();
  if (isPending) {
    return (
      <div aria-busy="true" aria-label="Loading the overview">
        <div className="skeleton" style={{ width: "40%" }} />
        <div className="skeleton" />
        <div className="skeleton" style={{ width: "70%" }} />
      </div>
    );
  }
  if (error) {
    return (
      <div className="error-box" role="alert">
        Could not load the overview: {error.message}
      </div>
    );
  }
  return (
    <>
      <StatesNotice states={data.states} />
      <StatRow counts={data.counts} />
      <div className="grid">
        <FailuresCard failures={data.failures} />
        <FindingsCard findings={data.findings} />
        <InvalidKeysCard rows={data.invalidKeys} />
      </div>
      <p className="muted" style={{ fontSize: "0.8rem" }}>
        Computed from the publish ledger and attempts at {new Date(data.generatedAt).toLocaleString()}.
      </p>
    </>
  );
}
