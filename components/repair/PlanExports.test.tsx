import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PlanExport } from "@/lib/contracts/orchestrators";
import { PlanExports } from "./PlanExports";

const one = (orchestrator: PlanExport["requests"][number]["orchestrator"], path: string): PlanExport => ({
  requests: [{ orchestrator, pipeline: "orders", wave: 0, method: "POST", path, body: {} }],
  unsupported: [],
});
const EXPORTS = {
  airflow: one("airflow", "/api/v2/dags/orders/clearTaskInstances"),
  dagster: one("dagster", "/graphql"),
  databricks: one("databricks", "/api/2.1/jobs/runs/repair"),
  dbt: one("dbt", "dbt build --select stg_orders"),
};

describe("PlanExports", () => {
  it("is a tablist of four tabs, one Tab stop, each controlling the panel it labels", () => {
    render(<PlanExports exports={EXPORTS} />);
    const tabs = within(screen.getByRole("tablist", { name: "Orchestrator" })).getAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual(["Airflow clear", "Dagster backfill", "Databricks repair", "dbt command"]);
    expect(tabs.map((t) => t.getAttribute("aria-selected"))).toEqual(["true", "false", "false", "false"]);
    expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1, -1, -1]);
    const panel = screen.getByRole("tabpanel", { name: "Airflow clear" });
    expect(tabs[0]).toHaveAttribute("aria-controls", panel.id);
    expect(panel).toHaveAttribute("tabindex", "0");
    expect(panel).toHaveAttribute("data-testid", "export-airflow");
    expect(panel).toHaveTextContent("clearTaskInstances");
    // The Copy button is beside the tabs, not one of them.
    expect(screen.getByRole("button", { name: "Copy" }).closest("[role=tablist]")).toBeNull();
  });

  it("moves with the arrows, Home and End, wrapping, and shows each tab's export as it goes", () => {
    render(<PlanExports exports={EXPORTS} />);
    const tab = (name: string) => screen.getByRole("tab", { name });
    act(() => tab("Airflow clear").focus());
    fireEvent.keyDown(tab("Airflow clear"), { key: "ArrowRight" });
    expect(document.activeElement).toBe(tab("Dagster backfill"));
    expect(tab("Dagster backfill")).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel", { name: "Dagster backfill" })).toHaveTextContent("/graphql");
    fireEvent.keyDown(tab("Dagster backfill"), { key: "End" });
    expect(document.activeElement).toBe(tab("dbt command"));
    expect(screen.getByTestId("export-dbt")).toHaveTextContent("dbt build --select stg_orders");
    fireEvent.keyDown(tab("dbt command"), { key: "ArrowRight" });
    expect(document.activeElement).toBe(tab("Airflow clear"));
    fireEvent.keyDown(tab("Airflow clear"), { key: "ArrowLeft" });
    expect(document.activeElement).toBe(tab("dbt command"));
    fireEvent.keyDown(tab("dbt command"), { key: "Home" });
    expect(tab("Airflow clear")).toHaveAttribute("aria-selected", "true");
    expect(tab("dbt command")).toHaveAttribute("tabindex", "-1");
  });
});
