"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import type { Me, TokenView, UserView } from "@/lib/contracts/access";
import { useAddUser, useChangeUser, useCreateToken, useRemoveUser, useRevokeToken, useTokens, useUsers } from "@/lib/client/use-access";
import { useMe } from "@/lib/client/use-me";
import styles from "./Access.module.css";
import { REASON_MIN, reasonProblem } from "@/lib/contracts/reason";
import { article } from "@/lib/domain/words";

const ROLES = ["viewer", "operator", "commander", "admin"] as const;
type Role = (typeof ROLES)[number];
const ROLE_MEANS: Record<Role, string> = {
  viewer: "reads everything that is not a secret",
  operator: "opens incidents, plans and runs repairs",
  commander: "also overrides validation, marks units, replays exports",
  admin: "also manages people, tokens and connections",
};
const splitNamespaces = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/** /settings/access: people and their roles, machine tokens — for admins; others see why not. */
export function AccessPage() {
  const me = useMe();
  if (me.isPending) return <div className="skeleton" aria-busy="true" />;
  if (me.error)
    return (
      <div className="error-box" role="alert">
        Could not tell who you are: {me.error.message}
      </div>
    );
  if (me.data.role !== "admin") return <NotAdmin me={me.data} />;
  return (
    <div className="grid">
      <Users me={me.data} />
      <Tokens />
    </div>
  );
}

function NotAdmin({ me }: { me: Me }) {
  return (
    <section className="card" data-testid="access-not-admin">
      <h2>Only an admin manages access</h2>
      <p className="sub">
        {me.source === "anonymous" ? (
          <>
            You are not signed in. <Link href="/sign-in?next=/settings/access">Sign in</Link> as an admin.
          </>
        ) : (
          <>
            You are {me.displayName}, {article(me.role)} {me.role}.
          </>
        )}{" "}
        On a fresh console, make the first admin on the console&apos;s machine:
      </p>
      <pre className={styles.code}>{'npm run users -- add <your id> --role admin --name "Your Name"\nnpm run users -- sign-in-link <your id>'}</pre>
    </section>
  );
}

function Users({ me }: { me: Me }) {
  const users = useUsers(true);
  const add = useAddUser();
  const [form, setForm] = useState({ id: "", displayName: "", role: "viewer" as Role, namespaces: "", reason: "" });
  const whyId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { id: form.id.trim(), displayName: form.displayName, role: form.role, namespaces: splitNamespaces(form.namespaces), reason: form.reason },
      { onSuccess: () => setForm({ id: "", displayName: "", role: "viewer", namespaces: "", reason: "" }) },
    );
  };
  return (
    <section className="card" aria-labelledby="people">
      <h2 id="people">People</h2>
      <p className="sub">
        People signing in through single sign-on appear here at their first sign-in, with the role their groups give.{" "}
        {ROLES.map((r) => `${r}: ${ROLE_MEANS[r]}`).join(" · ")}.
      </p>
      {users.error ? (
        <div className="error-box" role="alert">
          {users.error.message}
        </div>
      ) : null}
      {users.data ? (
        <>
          {/* What the row's disabled Save and Remove wait for, once for every row (each button is described by it while disabled). */}
          <p className="muted" id={whyId}>
            Save and Remove wait for the row&apos;s &ldquo;why&rdquo; (at least {REASON_MIN} characters); Save, also for a changed role or namespaces.
          </p>
          <table className="data reflow" data-testid="users-table">
            <thead>
              <tr>
                <th>Id</th>
                <th>Name</th>
                <th>Role</th>
                <th>Namespaces</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
                <UserRow key={u.id} user={u} self={u.id === me.id} whyId={whyId} />
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <div className="skeleton" aria-busy="true" />
      )}
      <h3>Add a person</h3>
      <form className={styles.form} onSubmit={submit} aria-label="Add a person">
        <label>
          Id
          <input required value={form.id} onChange={(e) => setForm({ ...form, id: e.target.value })} placeholder="as your sign-in names them" />
        </label>
        <label>
          Name
          <input value={form.displayName} onChange={(e) => setForm({ ...form, displayName: e.target.value })} />
        </label>
        <label>
          Role
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <label>
          Namespaces
          <input value={form.namespaces} onChange={(e) => setForm({ ...form, namespaces: e.target.value })} placeholder="all (or a, b)" />
        </label>
        <label>
          Why
          <input
            required
            minLength={3}
            value={form.reason}
            onChange={(e) => setForm({ ...form, reason: e.target.value })}
            placeholder="joins the on-call rota"
          />
        </label>
        <button type="submit" className={styles.primary} disabled={add.isPending}>
          Add
        </button>
      </form>
      {add.error ? (
        <div className="error-box" role="alert">
          {add.error.message}
        </div>
      ) : null}
    </section>
  );
}

function UserRow({ user, self, whyId }: { user: UserView; self: boolean; whyId: string }) {
  const change = useChangeUser();
  const remove = useRemoveUser();
  const [role, setRole] = useState<Role>(user.role);
  const [namespaces, setNamespaces] = useState(user.namespaces.join(", "));
  const [reason, setReason] = useState("");
  const dirty = role !== user.role || namespaces !== user.namespaces.join(", ");
  const error = change.error ?? remove.error;
  const cannotSave = !dirty || reasonProblem(reason) !== null;
  const cannotRemove = reasonProblem(reason) !== null;
  return (
    <tr data-testid={`user-${user.id}`}>
      <td className="mono wrap-anywhere" data-label="Id">
        {user.id}
        {self ? " (you)" : ""}
      </td>
      <td data-label="Name">{user.displayName}</td>
      <td data-label="Role">
        <select aria-label={`Role of ${user.id}`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </td>
      <td data-label="Namespaces">
        <input aria-label={`Namespaces of ${user.id}`} value={namespaces} onChange={(e) => setNamespaces(e.target.value)} placeholder="all" size={14} />
      </td>
      <td data-label="Change">
        <div className={styles.rowActions}>
          <input aria-label={`Why change ${user.id}`} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="why" size={12} />
          <button
            type="button"
            className={styles.secondary}
            disabled={cannotSave || change.isPending}
            aria-describedby={cannotSave ? whyId : undefined}
            onClick={() => change.mutate({ id: user.id, role, namespaces: splitNamespaces(namespaces), reason }, { onSuccess: () => setReason("") })}
          >
            Save
          </button>
          <button
            type="button"
            className={styles.secondary}
            disabled={cannotRemove || remove.isPending}
            aria-describedby={cannotRemove ? whyId : undefined}
            onClick={() => remove.mutate({ id: user.id, reason })}
          >
            Remove
          </button>
        </div>
        {error ? (
          <div className="error-box" role="alert">
            {error.message}
          </div>
        ) : null}
      </td>
    </tr>
  );
}

function Tokens() {
  const tokens = useTokens(true);
  const create = useCreateToken();
  const [form, setForm] = useState<{ name: string; scope: TokenView["scope"]; namespaces: string; reason: string }>({
    name: "",
    scope: "ingest",
    namespaces: "",
    reason: "",
  });
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const whyId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: form.name.trim(), scope: form.scope, namespaces: splitNamespaces(form.namespaces), reason: form.reason },
      {
        onSuccess: (r) => {
          setCreated({ name: r.token.name, secret: r.secret });
          setForm({ name: "", scope: "ingest", namespaces: "", reason: "" });
        },
      },
    );
  };
  return (
    <section className="card" aria-labelledby="tokens">
      <h2 id="tokens">Machine tokens</h2>
      <p className="sub">
        An <b>ingest</b> token may only send lineage events, publishes, source counts, partition definitions, frontier certificates and dbt artifacts; a{" "}
        <b>declare</b> token only applies the team&apos;s declaration file (<code>PUT /api/v1/declarations</code>) — each optionally only for the namespaces you
        list. Producers send it as <code>Authorization: Bearer</code> (OpenLineage&apos;s HTTP transport: <code>auth.type: api_key</code> with{" "}
        <code>auth.apiKey</code>).
      </p>
      {created ? (
        <div className={styles.secret} role="status" data-testid="token-secret">
          <b>Token {created.name} — copy it now; it is shown once and only its hash is kept.</b>
          <pre className={styles.code}>{created.secret}</pre>
          <pre
            className={styles.code}
          >{`# openlineage.yml\ntransport:\n  type: http\n  url: ${typeof window === "undefined" ? "" : window.location.origin}\n  endpoint: api/v1/lineage\n  auth:\n    type: api_key\n    apiKey: ${created.secret}`}</pre>
          <button type="button" className={styles.secondary} onClick={() => setCreated(null)}>
            I have stored it
          </button>
        </div>
      ) : null}
      {tokens.error ? (
        <div className="error-box" role="alert">
          {tokens.error.message}
        </div>
      ) : null}
      {tokens.data ? (
        tokens.data.tokens.length === 0 ? (
          <p className="empty">No tokens yet.</p>
        ) : (
          <>
            <p className="muted" id={whyId}>
              Revoke waits for the row&apos;s &ldquo;why&rdquo; (at least {REASON_MIN} characters).
            </p>
            <table className="data reflow" data-testid="tokens-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Scope</th>
                  <th>Namespaces</th>
                  <th>Last used</th>
                  <th>State</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {tokens.data.tokens.map((t) => (
                  <TokenRow key={t.name} token={t} whyId={whyId} />
                ))}
              </tbody>
            </table>
          </>
        )
      ) : (
        <div className="skeleton" aria-busy="true" />
      )}
      <h3>Create a token</h3>
      <form className={styles.form} onSubmit={submit} aria-label="Create a token">
        <label>
          Name
          <input
            required
            pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            placeholder="airflow-prod"
          />
        </label>
        <label>
          Scope
          <select value={form.scope} onChange={(e) => setForm({ ...form, scope: e.target.value as TokenView["scope"] })}>
            <option value="ingest">ingest</option>
            <option value="declare">declare</option>
          </select>
        </label>
        <label>
          Namespaces
          <input value={form.namespaces} onChange={(e) => setForm({ ...form, namespaces: e.target.value })} placeholder="all (or a, b)" />
        </label>
        <label>
          Why
          <input required minLength={3} value={form.reason} onChange={(e) => setForm({ ...form, reason: e.target.value })} placeholder="the Airflow provider" />
        </label>
        <button type="submit" className={styles.primary} disabled={create.isPending}>
          Create
        </button>
      </form>
      {create.error ? (
        <div className="error-box" role="alert">
          {create.error.message}
        </div>
      ) : null}
    </section>
  );
}

function TokenRow({ token, whyId }: { token: TokenView; whyId: string }) {
  const revoke = useRevokeToken();
  const [reason, setReason] = useState("");
  return (
    <tr data-testid={`token-${token.name}`}>
      <td className="mono wrap-anywhere" data-label="Name">
        {token.name}
      </td>
      <td data-label="Scope">{token.scope}</td>
      <td data-label="Namespaces">{token.namespaces.length ? token.namespaces.join(", ") : "all"}</td>
      <td className="nowrap" data-label="Last used">
        {token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : "never"}
      </td>
      <td data-label="State">{token.revokedAt ? `revoked by ${token.revokedBy}` : `active · by ${token.createdBy}`}</td>
      <td data-label={token.revokedAt ? undefined : "Revoke"}>
        {token.revokedAt ? null : (
          <div className={styles.rowActions}>
            <input aria-label={`Why revoke ${token.name}`} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="why" size={12} />
            <button
              type="button"
              className={styles.secondary}
              disabled={reasonProblem(reason) !== null || revoke.isPending}
              aria-describedby={reasonProblem(reason) !== null ? whyId : undefined}
              onClick={() => revoke.mutate({ name: token.name, reason })}
            >
              Revoke
            </button>
          </div>
        )}
        {revoke.error ? (
          <div className="error-box" role="alert">
            {revoke.error.message}
          </div>
        ) : null}
      </td>
    </tr>
  );
}
