"use client";

import Link from "next/link";
import { useSyncExternalStore } from "react";
import { useDatasetStatus } from "@/lib/client/use-completeness";
import type { DatasetStatusView } from "@/lib/contracts/dataset-status";
import { incidentDoing } from "@/lib/domain/plain-verdict";
import { counted } from "@/lib/domain/words";
import styles from "./Status.module.css";

const STATE_WORD: Record<DatasetStatusView["state"], string> = {
  complete: "Complete",
  incomplete: "Not complete",
  being_repaired: "Being repaired",
};

/**
 * A dataset's status for anyone who reads its numbers: the one line its badge shows, the units
 * that are not whole and who is on them, and how to put the badge where the number is read.
 */
export function DatasetStatusPage({ dataset }: { dataset: string }) {
  const status = useDatasetStatus(dataset);
  if (status.error)
    return (
      <div className="error-box" role="alert">
        Could not read the status of {dataset}: {status.error.message}
      </div>
    );
  if (!status.data) return <div className="skeleton" aria-busy="true" aria-label="Reading the status" />;
  const s = status.data;
  return (
    <div className={styles.page}>
      <section className={`card ${styles.status} ${styles[s.state]}`} aria-label="Status" data-testid="dataset-status" data-state={s.state}>
        <div className={styles.word} data-testid="status-word">
          {STATE_WORD[s.state]}
        </div>
        <p className={styles.headline} data-testid="status-headline">
          {s.headline}
        </p>
        <p className="muted">
          {s.completeThrough
            ? `Every unit from ${s.period.from} through ${s.completeThrough} is whole`
            : `No unit from ${s.period.from} on is certified whole yet`}
          {s.state === "complete" ? "" : `; ${counted(s.problems.length, "unit")} after it ${s.problems.length === 1 ? "is" : "are"} not.`} Period{" "}
          <span className="mono">
            {s.period.from} … {s.period.to}
          </span>
          , checked {new Date(s.checkedAt).toLocaleString()} (again every minute). <Link href={s.links.completeness}>The certificate, unit by unit</Link>
          {s.dataset.pipeline ? (
            <>
              {" · "}
              <Link href={`/status/pipeline/${encodeURIComponent(s.dataset.pipeline)}`}>the {s.dataset.pipeline} pipeline&apos;s status</Link>
            </>
          ) : null}
        </p>
      </section>

      {s.problems.length > 0 ? (
        <section className="card" aria-label="Units not whole">
          <h2>Units not whole</h2>
          <ul className={styles.problems} data-testid="status-problems">
            {s.problems.map((p) => (
              <li key={p.unitKey}>
                <span className={`mono ${styles.key}`}>{p.unitKey}</span> <strong>{p.word}</strong>
                {p.beingRepaired ? <span className={styles.chip}>being repaired</span> : null}
                <div>{p.sentence}</div>
                {p.incidents.length > 0 ? (
                  <div className="muted">
                    {p.incidents.map((i, n) => (
                      <span key={i.id}>
                        {n > 0 ? "; " : ""}
                        <Link href={i.href}>{i.title}</Link> {incidentDoing(i.status)}
                        {i.eta ? <Eta eta={i.eta} /> : null}
                      </span>
                    ))}
                  </div>
                ) : (
                  <div className="muted">No incident is open on it yet.</div>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <EmbedCard status={s} />
    </div>
  );
}

const noSubscription = () => () => {};

function EmbedCard({ status }: { status: DatasetStatusView }) {
  // The snippets name this console's own address, known only in the browser.
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
  const badge = `${origin}${status.links.badge}`;
  const json = `${origin}/api/v1/datasets/${encodeURIComponent(status.dataset.nodeId)}/status`;
  return (
    <section className="card" aria-label="Show it where the number is read">
      <h2>Show it where the number is read</h2>
      <p>
        {/* The badge is served by this console: it shows what this page shows, a minute old at most. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={status.links.badge} alt={status.headline} className={styles.badge} data-testid="status-badge" />
      </p>
      <dl className={styles.embed}>
        <dt>An image tile (Metabase, Superset, Grafana, Looker)</dt>
        <dd>
          <code data-testid="embed-badge">{badge}</code>
        </dd>
        <dt>HTML</dt>
        <dd>
          <code>{`<img src="${badge}" alt="${status.dataset.name} status">`}</code>
        </dd>
        <dt>JSON, for a bot or a check before quoting</dt>
        <dd>
          <code>{json}</code>
        </dd>
      </dl>
      <p className="muted">
        The badge answers whoever may read this console: with anonymous reads (the default) any dashboard can show it; with <code>REPARO_ANONYMOUS_READ=0</code>{" "}
        the viewer must be signed in to this console. docs/completeness.md has each tool&apos;s steps.
      </p>
    </section>
  );
}

/** When the incident's confirmed plan should be done, and how that was estimated (lib/domain/plan-eta.ts). */
function Eta({ eta }: { eta: NonNullable<DatasetStatusView["incidents"][number]["eta"]> }) {
  return (
    <span data-testid="status-eta">
      {" — "}
      {eta.at ? `expected whole by ${new Date(eta.at).toISOString().slice(0, 16).replace("T", " ")} UTC (${eta.basis})` : `no time estimate yet: ${eta.basis}`}
    </span>
  );
}
