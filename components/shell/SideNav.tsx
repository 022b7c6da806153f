"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
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

/**
 * The sections beside the page; on a phone (≤ 720 px, globals.css) a bar with a Menu button that
 * opens them over the page, closed again by a choice, Esc or the button.
 */
export function SideNav() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [shownFor, setShownFor] = useState(pathname);
  // A navigation closes the menu (the state is reset during render, not in an effect).
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  const current = SECTIONS.find((s) => isActive(pathname, s.href));
  return (
    <nav className="sidenav" aria-label="Main" data-open={open ? "true" : "false"}>
      <div className="sidenav-bar">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden>
            R
          </span>{" "}
          Reparo
        </Link>
        <button type="button" className="sidenav-menu" aria-expanded={open} aria-controls="sidenav-sections" onClick={() => setOpen((o) => !o)}>
          <span aria-hidden className="sidenav-menu-icon" />
          {current ? current.label : "Menu"}
          <span className="sr-only"> — {open ? "close" : "open"} the menu</span>
        </button>
      </div>
      <ul id="sidenav-sections">
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
