import type { NodePeople, RecipientView } from "@/lib/contracts/owners";
import styles from "./People.module.css";

const KIND_WORDS: Record<NonNullable<RecipientView["consumerKind"]>, string> = {
  dashboard: "dashboard",
  export_recipient: "export recipient",
  model_team: "model team",
  other: "consumer",
};
const CHANNEL_WORDS: Record<NonNullable<RecipientView["channel"]>, string> = { slack: "Slack", webhook: "webhook", email: "e-mail" };

/** How someone is reached, in words: their channel's kind, or the console's default webhook. */
export const reachedBy = (channel: RecipientView["channel"]) => (channel ? `via ${CHANNEL_WORDS[channel]}` : "via the default webhook");

/** A node's owners, each with where it was found, and who reads it (the matrix's cell panel, the lineage's people card). */
export function NodeOwners({ people, testId }: { people: NodePeople; testId: string }) {
  return (
    <dl className={styles.facts} data-testid={testId}>
      <dt>Owned by</dt>
      <dd data-testid={`${testId}-owners`}>
        {people.owners.length === 0
          ? "unknown: nobody declared an owner"
          : people.owners.map((o) => (
              <div key={o.name}>
                <strong>{o.name}</strong> <span className="muted">— {o.from}</span>
              </div>
            ))}
      </dd>
      <dt>Read by</dt>
      <dd data-testid={`${testId}-consumers`}>
        {people.readBy.length === 0
          ? "no consumer declared"
          : people.readBy.map((c) => (
              <div key={c.key}>
                <strong>{c.name}</strong> <span className="muted">— {KIND_WORDS[c.consumerKind ?? "other"]}</span>
              </div>
            ))}
      </dd>
    </dl>
  );
}

/** Everyone a closure reaches: owners with what they own of it, then consumers with what they read. */
export function RecipientList({ recipients, nameOf }: { recipients: RecipientView[]; nameOf: (nodeId: string) => string }) {
  if (recipients.length === 0) return <p className="muted">Nobody: no owner or consumer is known for these nodes.</p>;
  return (
    <ul className={styles.recipients} data-testid="closure-recipients">
      {recipients.map((r) => (
        <li key={r.key} data-testid={`recipient-${r.key}`}>
          <div className={styles.who}>
            <strong>{r.name}</strong> <span className={styles.role}>{r.role === "owner" ? "owner" : KIND_WORDS[r.consumerKind ?? "other"]}</span>
          </div>
          <div className="muted">
            {r.role === "owner" ? "owns " : "reads "}
            {[...new Set(r.nodeIds.map(nameOf))].join(", ")}
          </div>
          <div className="muted">
            {r.people.length > 0 ? `${r.people.join(", ")} · ` : ""}
            {reachedBy(r.channel)}
          </div>
        </li>
      ))}
    </ul>
  );
}
