import Link from "next/link";
import type { Completeness } from "@/lib/contracts/completeness";
import styles from "./Completeness.module.css";

type Plain = Completeness["byUnit"][number]["plain"];

/** Who is on the problem: the open incident, linked, or an offer to open one. */
function OnIt({ plain }: { plain: Plain }) {
  if (plain.onIt.length > 0) {
    return (
      <span data-testid="on-it">
        {plain.onIt.map((i, n) => (
          <span key={i.id}>
            {n > 0 ? " " : null}Incident “
            <Link href={i.href} prefetch={false}>
              {i.title}
            </Link>
            ” {i.doing}.
          </span>
        ))}
      </span>
    );
  }
  return (
    <span data-testid="on-it">
      No one is on it yet
      {plain.openIncidentHref ? (
        <>
          :{" "}
          <Link href={plain.openIncidentHref} prefetch={false}>
            open an incident
          </Link>
        </>
      ) : null}
      .
    </span>
  );
}

/**
 * The analyst's answer first: one plain sentence per problem — the dataset, the day, what it does
 * to the number, and who is on it. Run ids, states and tolerance bands are the engineer's details.
 */
export function PlainAnswer({ byUnit }: { byUnit: Completeness["byUnit"] }) {
  return (
    <ul className={styles.plainList} data-testid="plain-answer">
      {byUnit.map((u) => (
        <li key={u.unitKey} data-testid={`plain-${u.unitKey}`}>
          <span data-testid="plain-sentence">{u.plain.sentence}</span> <OnIt plain={u.plain} />
        </li>
      ))}
    </ul>
  );
}
