import { describe, expect, it } from "vitest";
import type { DbtNode } from "@/lib/contracts/ingestion-dbt";
import { dbtOwnerOf } from "./dbt-graph";

const model = (extra: Record<string, unknown>): DbtNode => ({ unique_id: "model.p.orders", resource_type: "model", name: "orders", ...extra }) as DbtNode;
// dbt's manifest v12: `groups` keyed by unique id, each with its owner (name and/or email).
const groups = {
  "group.p.finance": { name: "finance", owner: { name: "finance-team", email: "fin@example.com" } },
  "group.p.ml": { name: "ml", owner: { email: "ml@example.com" } },
};

describe("dbtOwnerOf", () => {
  it("meta.owner first (from the node's config, as dbt gathers it, or the node), then its group's owner", () => {
    expect(dbtOwnerOf(model({ config: { meta: { owner: "orders-team" } }, group: "finance" }), groups)).toBe("orders-team");
    expect(dbtOwnerOf(model({ meta: { owner: " data-eng " } }), groups)).toBe("data-eng");
    expect(dbtOwnerOf(model({ group: "finance" }), groups)).toBe("finance-team");
    expect(dbtOwnerOf(model({ group: "ml" }), groups)).toBe("ml@example.com");
  });

  it("the project names none (the jaffle_shop fixtures, dbt-ol's events): null", () => {
    expect(dbtOwnerOf(model({ config: { meta: {} } }), {})).toBeNull();
    expect(dbtOwnerOf(model({ meta: { owner: 42 }, group: "nowhere" }), groups)).toBeNull();
    expect(dbtOwnerOf(model({ group: "finance" }), null)).toBeNull();
  });
});
