/** A row of stg_orders and, joined with the customer, of fct_orders. */
export interface StagedOrder {
  order_id: string;
  customer_id: string;
  amount_cents: number;
  order_date: string;
  ordered_at: string;
}

export interface FactOrder extends StagedOrder {
  country: string;
  segment: string;
}
