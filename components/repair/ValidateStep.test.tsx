import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { anIncident, aUnitValidation } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { ValidateStep } from "./ValidateStep";

const URL = "/api/v1/incidents/inc-3/validation";
const stg = aUnitValidation();
const revenue = aUnitValidation({
  datasetNodeId: "dataset:warehouse:revenue_daily",
  name: "revenue_daily",
  rowCount: 5,
  sourceCount: null,
  checks: { inLedger: true, publishedOnce: true, nonEmpty: true, reconciles: null, notStale: true },
});

describe("ValidateStep", () => {
  it("ticks a reconciliation only where a source count was compared; elsewhere it says there was nothing to compare", async () => {
    server.use(http.get(URL, () => HttpResponse.json({ passed: true, units: [stg, revenue], failedUnits: 0, accountedByMarks: 0 })));
    renderWithQuery(<ValidateStep id="inc-3" incident={anIncident({ status: "validating" })} next={vi.fn()} back={vi.fn()} />);
    expect(await screen.findByTestId("validation-verdict")).toHaveTextContent(
      "Validation passes: all 2 units in the ledger, published once, non-empty, not stale, reconciled where a source count exists. 1 unit had no source count to reconcile against.",
    );
    const row = screen.getByTestId("validation-revenue_daily-2026-08-17");
    expect(within(row).getByTestId("rows")).toHaveTextContent("5 / —");
    expect(row.querySelector('td[data-ok="none"]')).toHaveTextContent("nothing to compare");
    expect(row.querySelectorAll('td[data-ok="true"]')).toHaveLength(4);
    expect(screen.getByTestId("validation-stg_orders-2026-08-17").querySelectorAll('td[data-ok="true"]')).toHaveLength(5);
  });

  it("names each failing check, and offers a commander's override instead of resolving", async () => {
    const failing = aUnitValidation({
      passed: false,
      state: "duplicate",
      rowCount: 66,
      failures: ["more than one copy published"],
      checks: { inLedger: true, publishedOnce: false, nonEmpty: true, reconciles: false, notStale: true },
    });
    server.use(http.get(URL, () => HttpResponse.json({ passed: false, units: [failing], failedUnits: 1, accountedByMarks: 0 })));
    renderWithQuery(<ValidateStep id="inc-3" incident={anIncident({ status: "validating" })} next={vi.fn()} back={vi.fn()} />);
    expect(await screen.findByTestId("validation-verdict")).toHaveTextContent("1 of 1 unit fails validation.");
    expect(screen.getByTestId("validation-stg_orders-2026-08-17")).toHaveTextContent("more than one copy published");
    expect(screen.queryByTestId("resolve-open")).toBeNull();
    expect(screen.getByTestId("override-open")).toHaveTextContent("Override validation and resolve");
  });

  it("says what a unit was built from and why it fails across the whole table under its row, in a focusable region, its inputs wrapping between them", async () => {
    const suspect = aUnitValidation({
      datasetNodeId: "dataset:warehouse:running_balance",
      name: "running_balance",
      unitKey: "2026-08-18",
      passed: false,
      state: "suspect",
      inputVersion: "fct_orders@1,running_balance@2026-08-17",
      failures: ["suspect: built from running_balance 2026-08-17, itself suspect", "not reconciled"],
    });
    server.use(http.get(URL, () => HttpResponse.json({ passed: false, units: [stg, suspect], failedUnits: 1, accountedByMarks: 0 })));
    renderWithQuery(<ValidateStep id="inc-3" incident={anIncident({ status: "validating" })} next={vi.fn()} back={vi.fn()} />);
    const unit = await screen.findByTestId("validation-running_balance-2026-08-18");
    const [checks, why] = within(unit).getAllByRole("row");
    expect(within(checks!).getAllByRole("cell")).toHaveLength(9);
    expect(within(why!).getByRole("cell")).toHaveAttribute("colspan", "9");
    expect(
      within(why!)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(suspect.failures);
    // A passing unit's says only what it was built from.
    const passing = within(screen.getByTestId("validation-stg_orders-2026-08-17")).getAllByRole("row");
    expect(passing).toHaveLength(2);
    expect(passing[1]).toHaveTextContent(/^Input version: raw_orders@2026-08-26$/);
    const region = screen.getByRole("region", { name: "Validation of each unit" });
    expect(region).toHaveAttribute("tabindex", "0");
    expect(region).toContainElement(unit);
    // Break opportunities between the inputs, at a name's "_", and before "@version" — never after "@".
    const version = within(why!).getByTestId("input-version");
    expect(version).toHaveTextContent("Input version: fct_orders@1, running_balance@2026-08-17");
    expect(version.innerHTML.replace(/<span[^>]*>|<\/span>/g, "")).toBe("Input version: fct_<wbr>orders<wbr>@1, running_<wbr>balance<wbr>@2026-08-17");
  });

  it("resolves with a reason, then refreshes what the resolution changed everywhere", async () => {
    let posted: unknown = null;
    server.use(
      http.get(URL, () => HttpResponse.json({ passed: true, units: [stg], failedUnits: 0, accountedByMarks: 0 })),
      http.post("/api/v1/incidents/inc-3/resolve", async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ ok: true, auditSeq: 88 });
      }),
    );
    const next = vi.fn();
    const { client } = renderWithQuery(<ValidateStep id="inc-3" incident={anIncident({ status: "validating" })} next={next} back={vi.fn()} />);
    const invalidate = vi.spyOn(client, "invalidateQueries");
    await userEvent.click(await screen.findByTestId("resolve-open"));
    await userEvent.type(within(screen.getByTestId("resolve")).getByRole("textbox"), "validation passed for the unit");
    await userEvent.click(screen.getByRole("button", { name: "Confirm: resolve the incident" }));
    await vi.waitFor(() => expect(next).toHaveBeenCalledOnce());
    expect(posted).toEqual({ reason: "validation passed for the unit" });
    const keys = invalidate.mock.calls.map(([f]) => f?.queryKey?.[0]);
    expect(keys).toEqual(expect.arrayContaining(["incidents", "audit", "overview", "alerts", "units", "lineage", "completeness", "history"]));
  });
});
