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

  it("while the run waits on a peer that is down: the peer and the cause, the next try, and nothing counted done that did not run", async () => {
    const progress = aProgress("running", ["succeeded", "pending", "pending"]);
    const fault = { message: "Airflow at http://airflow:8080 is not reachable: connection refused", at: "2026-08-18T03:11:00.000Z", attempt: 2, of: 10 };
    render("repairing", { ...progress, run: { ...progress.run!, fault: { ...fault, retryInSeconds: 12 } } });
    expect(await screen.findByTestId("run-fault")).toHaveTextContent(
      "The repair is waiting: Airflow at http://airflow:8080 is not reachable: connection refused. Reparo asks again in 12 s (attempt 2 of 10); then the run fails.",
    );
    expect(screen.getByTestId("progress-count")).toHaveTextContent("1 of 3 pairs done · 1 succeeded · 0 failed or blocked");
    expect(screen.getByTestId("cancel-repair-open")).toBeVisible();
  });

  it("after a run that failed on a refusal: the cause, and how to resume from the wizard", async () => {
    const progress = aProgress("failed", ["pending", "pending", "pending"]);
    const message = "Airflow at http://airflow:8080: the user reparo lacks the permission for clearing stg_orders in DAG orders (403)";
    render("validating", {
      ...progress,
      run: { ...progress.run!, fault: { message, at: "2026-08-18T03:11:00.000Z", attempt: 3, of: 3, retryInSeconds: null } },
    });
    expect(await screen.findByTestId("run-fault")).toHaveTextContent(
      `Repair #1 stopped on: ${message}. Once the cause is fixed, confirm the plan again at the Plan step; “Resume” here then runs only the pairs not yet done.`,
    );
    expect(screen.getByTestId("progress-count")).toHaveTextContent("0 of 3 pairs done · 0 succeeded · 0 failed or blocked");
  });

  it("after a run that succeeded: no launch, no cancel, one pair named in the singular", async () => {
    render("validating", aProgress("succeeded", ["succeeded"]));
    expect(await screen.findByTestId("progress-count")).toHaveTextContent("1 of 1 pair done · 1 succeeded · 0 failed or blocked");
    expect(screen.queryByTestId("launch")).toBeNull();
    expect(screen.queryByTestId("cancel-repair-open")).toBeNull();
    expect(screen.getByRole("button", { name: "Validate →" })).toBeEnabled();
  });
});
