import { screen } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { anIncident, aProgress } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import type { IncidentDetail } from "@/lib/contracts/incidents";
import { ExecuteStep } from "./ExecuteStep";

const PROGRESS = "/api/v1/incidents/inc-3/progress";

function render(status: IncidentDetail["status"], progress: ReturnType<typeof aProgress> | null) {
  server.use(http.get(PROGRESS, () => HttpResponse.json(progress ?? { run: null, total: 0, done: 0, succeeded: 0, failed: 0, pairs: [], dispatched: [] })));
  renderWithQuery(<ExecuteStep id="inc-3" incident={anIncident({ status })} next={vi.fn()} back={vi.fn()} reviewed={null} />);
}

// The Execute step renders from the run's allowedActions (its lifecycle table): cancel while it
// goes, resume after it ended short, validate once it ended.
describe("ExecuteStep", () => {
  it("before any run: the launch, and Validate held back saying why", async () => {
    render("planned", null);
    expect(await screen.findByText(/Nothing launched yet/)).toBeVisible();
    expect(screen.getByTestId("launch")).toHaveTextContent("Launch the repair run");
    const validate = screen.getByRole("button", { name: "Validate →" });
    expect(validate).toBeDisabled();
    expect(document.getElementById(validate.getAttribute("aria-describedby")!)).toHaveTextContent("Nothing has run yet: launch the repair first");
  });

  it("while the run goes: its progress, a cancel, and no validation yet", async () => {
    render("repairing", aProgress("running", ["succeeded", "running", "pending"]));
    expect(await screen.findByTestId("run-status")).toHaveTextContent("running");
    expect(screen.getByTestId("progress-count")).toHaveTextContent("1 of 3 pairs done · 1 succeeded · 0 failed or blocked");
    expect(screen.getByTestId("cancel-repair-open")).toBeVisible();
    expect(screen.queryByTestId("launch")).toBeNull();
    const validate = screen.getByRole("button", { name: "Validate →" });
    expect(validate).toBeDisabled();
    expect(document.getElementById(validate.getAttribute("aria-describedby")!)).toHaveTextContent("The repair is still running");
  });

  it("after a partial run with a plan confirmed again: a resume of the pairs not done, and validation open", async () => {
    render("planned", aProgress("partial", ["succeeded", "failed", "upstream_failed"]));
    expect(await screen.findByTestId("run-status")).toHaveTextContent("partial");
    expect(screen.getByTestId("launch")).toHaveTextContent("Resume: run the pairs not yet done");
    expect(screen.queryByTestId("cancel-repair-open")).toBeNull();
    expect(screen.getByRole("button", { name: "Validate →" })).toBeEnabled();
  });

  it("after a run that succeeded: no launch, no cancel, one pair named in the singular", async () => {
    render("validating", aProgress("succeeded", ["succeeded"]));
    expect(await screen.findByTestId("progress-count")).toHaveTextContent("1 of 1 pair done · 1 succeeded · 0 failed or blocked");
    expect(screen.queryByTestId("launch")).toBeNull();
    expect(screen.queryByTestId("cancel-repair-open")).toBeNull();
    expect(screen.getByRole("button", { name: "Validate →" })).toBeEnabled();
  });
});
