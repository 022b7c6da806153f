import { Fragment } from "react";

/**
 * A dataset's or task's name that wraps at its own separators (".", "/", ":") and nowhere else:
 * `random-gcp-project.dbt_test1.test_second_parallel_dbt_model` wraps after each dot instead of
 * widening its table, and `executive_dashboard` is never cut in two. The full name stays the
 * text (copy, search, screen readers) and the tooltip.
 */
export function Name({ children, strong = true }: { children: string; strong?: boolean }) {
  const parts = children.split(/(?<=[./:])/);
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
