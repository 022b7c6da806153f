"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { WhoAmI } from "./WhoAmI";

const SECTIONS = [
  { href: "/", label: "Overview", hint: "What is failing now" },
  { href: "/incidents", label: "Incidents", hint: "Guided repair" },
  { href: "/lineage", label: "Lineage", hint: "Blast radius" },
  { href: "/units", label: "Units", hint: "State of every unit" },
  { href: "/completeness", label: "Completeness", hint: "Can I quote this number?" },
  { href: "/history", label: "History", hint: "Repairs over time" },
  { href: "/alerts", label: "Alerts", hint: "From the data, not only tasks" },
  { href: "/audit", label: "Audit log", hint: "Every intervention" },
  { href: "/settings/ingestion", label: "Ingestion", hint: "Feed Reparo" },
  { href: "/settings/access", label: "Access", hint: "People, roles and machine tokens" },
] as const;

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function SideNav() {
  const pathname = usePathname();
  return (
    <nav className="sidenav" aria-label="Main">
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden>R</span> Reparo
      </Link>
      <ul>
        {SECTIONS.map((s) => (
          <li key={s.href}>
            <Link href={s.href} aria-current={isActive(pathname, s.href) ? "page" : undefined} title={s.hint}>
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
      <WhoAmI />
    </nav>
  );
}
