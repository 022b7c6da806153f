import { Fragment } from "react";

/** Where a name may wrap: after each of its own separators, never inside a word. */
const SEPARATORS = /(?<=[_./:@])/;

/**
 * A dataset's or task's name that wraps at its own separators ("_", ".", "/", ":", "@") and nowhere
 * else: `random-gcp-project.dbt_test1.test_second_parallel_dbt_model` wraps after a dot or an
 * underscore instead of widening its table, and `refresh_executive_dashboard` becomes
 * "refresh_executive_" / "dashboard", never "refresh_executive_das" / "hboard". The full name stays
 * the text (copy, search, screen readers) and the tooltip.
 */
export function Name({ children, strong = true }: { children: string; strong?: boolean }) {
  const parts = children.split(SEPARATORS);
  const text = parts.map((p, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {p}
    </Fragment>
  ));
  return strong ? (
    <strong className="name" title={children}>
      {text}
    </strong>
  ) : (
    <span className="name" title={children}>
      {text}
    </span>
  );
}
