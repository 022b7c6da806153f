import { nameTail } from "../matrix/name-tail";

/**
 * dbt's unique ids: `<resource type>.<project>.<name>`, a test's with a hash of its arguments after
 * it (`test.jaffle_shop.not_null_orders_order_id.cf6c17daed`).
 */
const DBT_ID = /^(?:model|test|seed|snapshot|source|analysis|exposure|metric|semantic_model|saved_query|unit_test)\.[^.]+\.(.+?)(?:\.[0-9a-f]{10})?$/;

/**
 * The name a lineage node shows. A dbt resource shows its own name — the project every node of
 * it shares and a test's hash tell nothing apart — and a long one is cut at its end by the node's
 * ellipsis (a test's name starts with what it checks). Any other name too long for the node is cut
 * from its start at its separators (`…public.stg_orders`), as the matrix's rows are, so the end
 * that tells names apart stays whole.
 *
 * Example: nodeLabel("test.jaffle_shop.unique_orders_order_id.fed79b3a6e", fits) === "unique_orders_order_id"
 */
export function nodeLabel(name: string, fits: (text: string) => boolean): string {
  const dbt = DBT_ID.exec(name);
  if (dbt) return dbt[1]!;
  return nameTail(name, fits);
}
