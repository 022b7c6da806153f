"use client";

import { useMe, useSignOut } from "@/lib/client/use-me";
import styles from "./Access.module.css";

/** The ways in: the organisation's single sign-on, or a one-time link made on the console's machine. */
export function SignInPage({ error, signedOut, next }: { error: string | null; signedOut: boolean; next: string }) {
  const me = useMe();
  const signOut = useSignOut();
  const m = me.data;
  return (
    <div className="grid" style={{ maxWidth: 640 }}>
      {error ? (
        <p className="error-box" role="alert" data-testid="sign-in-error">
          {error}
        </p>
      ) : null}
      {signedOut ? (
        <p className={styles.callout} role="status">
          You are signed out of Reparo.
        </p>
      ) : null}
      {m && m.source !== "anonymous" ? (
        <section className="card" data-testid="signed-in-as">
          <h2>Signed in as {m.displayName}</h2>
          <p className="sub">
            {m.id} · {m.role}
            {m.namespaces.length ? ` in ${m.namespaces.join(", ")}` : " in every namespace"}
            {m.source === "demo" ? " · the demo's identity" : m.source === "proxy" ? " · named by your organisation's auth proxy" : ""}
          </p>
          {m.source === "session" ? (
            <button type="button" className={styles.secondary} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              Sign out
            </button>
          ) : null}
        </section>
      ) : null}
      {m?.signIn.oidc ? (
        <section className="card">
          <h2>Single sign-on</h2>
          <p className="sub">Your role comes from your groups at {m.signIn.providerName}; it is read again at every sign-in.</p>
          <a className={styles.primary} href={`/api/auth/login?next=${encodeURIComponent(next)}`} data-testid="sign-in-oidc">
            Sign in with {m.signIn.providerName}
          </a>
        </section>
      ) : null}
      <section className="card">
        <h2>{m?.signIn.oidc ? "Without single sign-on" : "Sign in with a one-time link"}</h2>
        <p className="sub">
          {m?.signIn.oidc
            ? "An admin can still let someone in with a one-time link."
            : "This console has no single sign-on set up (docs/operations.md says how)."}{" "}
          On the console&apos;s machine, an admin runs
        </p>
        <pre className={styles.code}>npm run users -- sign-in-link &lt;your id&gt;</pre>
        <p className="sub">and sends you the link it prints. It works once, within 15 minutes.</p>
      </section>
    </div>
  );
}
