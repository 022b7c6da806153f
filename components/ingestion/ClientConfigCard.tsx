"use client";

import { useState } from "react";
import type { ClientConfig } from "./client-configs";

export function ClientConfigCard({ config }: { config: ClientConfig }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(config.text);
    setCopied(true);
  };
  return (
    <section className="card" aria-labelledby={`config-${config.id}`} data-testid={`config-${config.id}`}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: 8, minWidth: 0 }}>
        <h2 id={`config-${config.id}`} style={{ minWidth: 0, overflowWrap: "anywhere" }}>
          {config.title}
        </h2>
        <button type="button" className="badge" onClick={copy} aria-label={`Copy the ${config.id} settings`}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre className="mono" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", background: "#f6f7f9", padding: 10, borderRadius: 6, margin: "8px 0 0" }}>
        {config.text}
      </pre>
    </section>
  );
}
