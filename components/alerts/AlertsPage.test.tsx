import { screen, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { anAlert, anAlertGroup, someAlerts } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { AlertsPage } from "./AlertsPage";

describe("AlertsPage", () => {
  it("names each alert's source, rule, dataset and units, and links to open an incident", async () => {
    server.use(http.get("/api/v1/alerts", () => HttpResponse.json(someAlerts())));
    renderWithQuery(<AlertsPage />);
    const dup = await screen.findByTestId("alert-published_more_than_once-stg_orders");
    expect(within(dup).getByText("data alert")).toBeInTheDocument();
    expect(within(dup).getByText("more than one copy")).toBeInTheDocument();
    expect(within(dup).getByText("1 unit holding more than one copy")).toBeInTheDocument();
    expect(within(dup).getByTestId("alert-units")).toHaveTextContent("2026-08-10");
    expect(within(dup).getByRole("link", { name: "Open incident →" })).toHaveAttribute(
      "href",
      "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-10",
    );
  });

  it("groups the alerts by root cause: what it reaches, what was already sent outside, one way in", async () => {
    server.use(http.get("/api/v1/alerts", () => HttpResponse.json(someAlerts())));
    renderWithQuery(<AlertsPage />);
    expect(await screen.findByRole("heading", { name: "1 root cause behind 2 alerts" })).toBeInTheDocument();
    const group = screen.getByTestId("alert-group");
    expect(within(group).getByTestId("alert-group-title")).toHaveTextContent("stg_orders 2026-08-10: duplicated");
    expect(group).toHaveTextContent("2 alerts · reaches 2 units in 2 datasets · 2 of its alerts are critical; 1 unit already delivered outside the platform");
    expect(within(group).getByTestId("alert-group-delivered")).toHaveTextContent("weekly_revenue_export 2026-W33 sent to sftp://finance.example/weekly");
    expect(within(group).getByRole("link", { name: "Open an incident on the root cause →" })).toHaveAttribute(
      "href",
      "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-10",
    );
  });

  it("a group an open incident already holds links to it instead", async () => {
    server.use(
      http.get("/api/v1/alerts", () =>
        HttpResponse.json(someAlerts({ groups: [anAlertGroup({ handledBy: { id: "inc-4", title: "stg_orders 2026-08-10 duplicated" } })] })),
      ),
    );
    renderWithQuery(<AlertsPage />);
    expect(await screen.findByTestId("alert-group-handled")).toHaveAttribute("href", "/incidents/inc-4");
    expect(screen.queryByTestId("alert-group-open")).toBeNull();
  });

  it("lets a long dbt name wrap at its dots and underscores only, keeping the whole name as its text and tooltip", async () => {
    const name = "random-gcp-project.dbt_test1.test_second_parallel_dbt_model";
    server.use(http.get("/api/v1/alerts", () => HttpResponse.json(someAlerts({ alerts: [anAlert({ datasetName: name, incidentHref: null })] }))));
    renderWithQuery(<AlertsPage />);
    const row = await screen.findByTestId(`alert-published_more_than_once-${name}`);
    const shown = within(row).getByTitle(name);
    expect(shown).toHaveTextContent(name);
    // A break opportunity after each "." and "_", none inside a word.
    expect(shown.innerHTML.split("<wbr>")).toEqual(["random-gcp-project.", "dbt_", "test1.", "test_", "second_", "parallel_", "dbt_", "model"]);
    expect(within(row).getByText("no writing task")).toBeInTheDocument();
  });

  it("abbreviates a long list of units to the first three and the count", async () => {
    const units = Array.from({ length: 9 }, (_, i) => `2026-08-${String(17 + i).padStart(2, "0")}`);
    server.use(http.get("/api/v1/alerts", () => HttpResponse.json(someAlerts({ alerts: [anAlert({ units, unitCount: 9 })] }))));
    renderWithQuery(<AlertsPage />);
    expect(await screen.findByTestId("alert-units")).toHaveTextContent("2026-08-17, 2026-08-18, 2026-08-19 … (9 units)");
  });
});
