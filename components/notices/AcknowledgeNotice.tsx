"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { AckBodySchema, AckViewSchema, type AckView } from "@/lib/contracts/notices";
import { apiFetch } from "@/lib/client/api-fetch";

const at = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** The message as it was sent, and the acknowledgement: who (a name, unless signed in) and the button. */
export function AcknowledgeNotice({ token, initial }: { token: string; initial: AckView }) {
  const [name, setName] = useState("");
  const nameId = useId();
  const ack = useMutation<AckView, Error, { name?: string }>({
    mutationFn: (body) =>
      apiFetch(`/api/v1/acks/${encodeURIComponent(token)}`, AckViewSchema, { method: "POST", body: JSON.stringify(AckBodySchema.parse(body)) }),
  });
  const view = ack.data ?? initial;
  return (
    <section className="card" aria-labelledby="ack-subject">
      <h2 id="ack-subject" style={{ overflowWrap: "anywhere" }}>
        {view.subject}
      </h2>
      <p>
        To <strong>{view.recipientName}</strong>
        {view.sentAt ? `, sent ${at(view.sentAt)}` : ""}
      </p>
      <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="ack-text">
        {view.text}
      </pre>
      {view.acknowledgedAt ? (
        <p role="status" data-testid="ack-done">
          Acknowledged by {view.acknowledgedBy} on {at(view.acknowledgedAt)}.
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            ack.mutate(name.trim() ? { name: name.trim() } : {});
          }}
          style={{ display: "grid", gap: 6, maxWidth: 420 }}
        >
          <label htmlFor={nameId}>Your name (signed in, it may stay empty)</label>
          <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} data-testid="ack-name" />
          {ack.error ? (
            <div className="error-box" role="alert">
              {ack.error.message}
            </div>
          ) : null}
          <button type="submit" disabled={ack.isPending} data-testid="ack-button" style={{ justifySelf: "start" }}>
            {ack.isPending ? "Recording…" : "Acknowledge"}
          </button>
        </form>
      )}
    </section>
  );
}
