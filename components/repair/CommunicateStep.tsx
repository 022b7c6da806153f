"use client";

import { useId, useState } from "react";
import type { NoticeView } from "@/lib/contracts/notices";
import { useOverrideValidation } from "@/lib/client/incident-actions";
import { useIncidentNotices, useSendNotice } from "@/lib/client/use-notices";
import { ActionError } from "./ActionError";
import { ConfirmIntervention } from "./ConfirmIntervention";
import { StepActions } from "./StepActions";
import { allows, type StepProps } from "./step-props";
import styles from "./Wizard.module.css";
import c from "./Communicate.module.css";

const EVENT_WORDS: Record<string, string> = {
  opened: "on open",
  plan_confirmed: "plan confirmed",
  resolved: "resolved",
  abandoned: "abandoned",
  manual: "by hand",
};

const at = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** A notice's state in words: sent, on its way, or undelivered with why and when it is tried again. */
function NoticeState({ n }: { n: NoticeView }) {
  if (n.status === "sent") return <span className={c.sent}>sent {n.sentAt ? at(n.sentAt) : ""}</span>;
  if (n.status === "queued" || n.status === "sending") return <span>{n.status === "queued" ? "queued" : "sending…"}</span>;
  return (
    <span className={c.undelivered}>
      undelivered after {n.attempts} {n.attempts === 1 ? "try" : "tries"}
      {n.lastError ? `: ${n.lastError}` : ""}
      {n.status === "failed" && n.nextAttemptAt ? ` — next try ${at(n.nextAttemptAt)}` : " — no more tries; send it again"}
    </span>
  );
}

/**
 * Step 7: who the incident reaches and what each was told — every notice with its channel, its
 * delivery and its acknowledgement — a message of the operator's own, and the resolve guard:
 * the units delivered outside that are neither re-delivered nor acknowledged.
 */
export function CommunicateStep({ id, incident, next, back }: StepProps) {
  const { data, error, isPending } = useIncidentNotices(id);
  const send = useSendNotice(id);
  const override = useOverrideValidation(id);
  const [text, setText] = useState("");
  const [only, setOnly] = useState<string[]>([]);
  const textId = useId();
  if (isPending) return <div className="skeleton" aria-busy="true" />;
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not load the notices: {error.message}
      </div>
    );
  const toggle = (key: string) => setOnly((o) => (o.includes(key) ? o.filter((k) => k !== key) : [...o, key]));
  return (
    <>
      {data.outstandingDeliveries.length > 0 ? (
        <div className={styles.blocker} data-testid="delivery-guard">
          Resolving waits on {data.outstandingDeliveries.length === 1 ? "a delivery" : "deliveries"} already made outside, neither re-delivered nor
          acknowledged:
          <ul>
            {data.outstandingDeliveries.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className={styles.ok} data-testid="delivery-guard">
          No delivery outside holds the resolve.
        </p>
      )}
      <h3 className={c.heading}>Who the incident reaches</h3>
      {data.recipients.length === 0 ? <p>No owner or consumer is known for what it reaches — declare them, or tell people yourself.</p> : null}
      <ul className={c.recipients} data-testid="recipients">
        {data.recipients.map((r) => {
          const told = data.notices.filter((n) => n.recipientKey === r.key);
          return (
            <li key={r.key} className={c.recipient} data-testid={`recipient-${r.name}`}>
              <div className={c.who}>
                <label>
                  <input type="checkbox" checked={only.includes(r.key)} onChange={() => toggle(r.key)} /> <strong>{r.name}</strong>
                </label>{" "}
                <span className={c.role}>{r.role}</span> · {r.channel ?? "no channel"}
              </div>
              <div className={c.reaches}>{r.reaches.join(", ")}</div>
              {told.length === 0 ? (
                <div>not told yet</div>
              ) : (
                <ul className={c.notices}>
                  {told.map((n) => (
                    <li key={n.id} data-testid={`notice-${n.status}`}>
                      <span className={c.event}>{EVENT_WORDS[n.event] ?? n.event}</span> · {n.channel} · <NoticeState n={n} />
                      {n.acknowledgedAt ? (
                        <span className={c.sent} data-testid="acknowledged">
                          {" "}
                          · acknowledged by {n.acknowledgedBy} {at(n.acknowledgedAt)}
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      {data.defaultChannel === null ? <p className={c.note}>No default channel: set REPARO_NOTIFY_WEBHOOK_URL to reach owners without one.</p> : null}
      {allows(incident, "add_note") ? (
        <form
          className={c.form}
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate({ text, ...(only.length ? { recipients: only } : {}) }, { onSuccess: () => setText("") });
          }}
        >
          <label htmlFor={textId}>
            Send a message to {only.length ? `the ${only.length} ticked` : "everyone it reaches"} (each with its acknowledgement link)
          </label>
          <textarea id={textId} rows={4} value={text} onChange={(e) => setText(e.target.value)} data-testid="notice-text" />
          <ActionError error={send.error} />
          <button type="submit" className={styles.primary} disabled={send.isPending || text.trim() === ""} data-testid="notice-send">
            {send.isPending ? "Sending…" : "Send"}
          </button>
          {send.data ? (
            <span role="status">
              {" "}
              {send.data.queued} queued{send.data.unreachable.length ? `; no channel for ${send.data.unreachable.join(", ")}` : ""}
            </span>
          ) : null}
        </form>
      ) : null}
      {allows(incident, "override_validation") && data.outstandingDeliveries.length > 0 ? (
        <ConfirmIntervention
          testId="override-deliveries"
          label="Resolve past the deliveries"
          danger
          pending={override.isPending}
          error={override.error}
          believe="the incident resolves although a delivery made outside is neither re-delivered nor acknowledged. The override is recorded with your reason; commanders only."
          onConfirm={(reason) => override.mutate({ reason }, { onSuccess: next })}
        />
      ) : null}
      <StepActions back={back}>
        <button type="button" onClick={next}>
          Close →
        </button>
      </StepActions>
    </>
  );
}
