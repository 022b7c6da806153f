"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useMe, useSignOut } from "@/lib/client/use-me";

/** Who this browser acts as, in the navigation: name, role, and the way in or out. */
export function WhoAmI() {
  const me = useMe();
  const signOut = useSignOut();
  const pathname = usePathname();
  if (!me.data) return null;
  const m = me.data;
  if (m.source === "anonymous") {
    return (
      <div className="whoami" data-testid="whoami">
        <span className="muted">Not signed in · read only</span>
        <Link href={`/sign-in?next=${encodeURIComponent(pathname)}`} className="whoami-action">
          Sign in
        </Link>
      </div>
    );
  }
  const scope = m.namespaces.length ? ` in ${m.namespaces.join(", ")}` : "";
  return (
    <div className="whoami" data-testid="whoami">
      <span className="whoami-name" title={m.id}>
        {m.displayName}
      </span>
      <span className="whoami-role" data-testid="whoami-role">
        {m.role}
        {scope}
        {m.demo ? " · demo" : ""}
      </span>
      {m.source === "session" ? (
        <button type="button" className="whoami-action" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
      ) : null}
    </div>
  );
}
