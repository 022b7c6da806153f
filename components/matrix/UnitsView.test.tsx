import { act, fireEvent, screen, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { useSyncExternalStore } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { matrixInRuns, type UnitMatrix } from "@/lib/contracts/units";
import { aMatrixRow, aMatrixSection, anInvalidKey, aUnitDetail, aUnitMatrix } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { UnitsView } from "./UnitsView";
import type { NodePeople } from "@/lib/contracts/owners";

// The URL is the matrix's state (filters, open cell): a tiny router whose replace() changes the
// search params every hook reads, as Next's does.
const nav = vi.hoisted(() => {
  let search = new URLSearchParams();
  const listeners = new Set<() => void>();
  return {
    get: () => search,
    set(query: string) {
      search = new URLSearchParams(query);
      listeners.forEach((l) => l());
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
});
vi.mock("next/navigation", () => ({
  usePathname: () => "/units",
  useSearchParams: () => useSyncExternalStore(nav.subscribe, nav.get, nav.get),
  useRouter: () => ({ replace: (url: string) => nav.set(url.split("?")[1] ?? "") }),
}));

/** The matrix API's answer: in runs when asked for (the page always asks), as the route answers. */
const matrixAnswer =
  (m: UnitMatrix) =>
  ({ request }: { request: Request }) =>
    HttpResponse.json(new URL(request.url).searchParams.get("cells") === "runs" ? matrixInRuns(m) : m);

const grid = () => screen.getByRole("grid", { name: "Unit matrix: Daily (UTC)" });

describe("UnitsView", () => {
  beforeEach(() => {
    nav.set("");
    server.use(
      http.get("/api/v1/units/matrix", matrixAnswer(aUnitMatrix({ pipelines: ["billing_dag", "finance", "meters", "ml", "orders"] }))),
      http.get("/api/v1/units/cell", ({ request }) => HttpResponse.json(aUnitDetail({ unitKey: new URL(request.url).searchParams.get("unit")! }))),
      http.get("/api/v1/lineage-graph/node-people", ({ request }) =>
        HttpResponse.json({
          nodeId: new URL(request.url).searchParams.get("nodeId")!,
          owners: [{ name: "orders-team", from: "owner of the task writing it (declared)" }],
          readBy: [
            {
              key: "consumer:revenue-dashboard",
              name: "Revenue dashboard",
              role: "consumer",
              consumerKind: "dashboard",
              people: [],
              channel: null,
              nodeIds: ["dataset:warehouse:stg_orders"],
            },
          ],
        } satisfies NodePeople),
      ),
    );
  });

  it("lists every pipeline the catalog names in the pipeline filter, one without rows in view too", async () => {
    renderWithQuery(<UnitsView />);
    await screen.findByRole("grid");
    const options = within(screen.getByRole("combobox", { name: "Pipeline" }))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(options).toEqual(["All pipelines", "billing_dag", "finance", "meters", "ml", "orders"]);
  });

  it("opens the focused unit with Enter; Esc closes the panel from anywhere and gives the focus back to the grid", async () => {
    renderWithQuery(<UnitsView />);
    await screen.findByRole("grid");
    act(() => grid().focus());
    fireEvent.keyDown(grid(), { key: "Enter" });
    const panel = await screen.findByTestId("cell-panel");
    expect(nav.get().get("unit")).toBe("2026-08-17");
    expect(await within(panel).findByTestId("panel-state")).toHaveTextContent("failed");
    // Where the writer's write mode came from is said beside it.
    expect(within(panel).getByTestId("panel-writer")).toHaveTextContent("stg_orders (append — declared)");
    // The dataset's owners, with where each was found, and who reads it.
    expect(await within(panel).findByTestId("panel-people-owners")).toHaveTextContent("orders-team — owner of the task writing it (declared)");
    expect(within(panel).getByTestId("panel-people-consumers")).toHaveTextContent("Revenue dashboard — dashboard");
    // The focus wandered into the panel; Esc still closes it, and the grid has the focus again.
    act(() => within(panel).getByRole("button", { name: "Close the unit panel" }).focus());
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByTestId("cell-panel")).toBeNull();
    expect(nav.get().has("cell")).toBe(false);
    expect(document.activeElement).toBe(grid());
  });

  it("closing a panel opened from a pasted link puts the focus on the matrix", async () => {
    nav.set("cell=dataset%3Awarehouse%3Astg_orders&unit=2026-08-17");
    renderWithQuery(<UnitsView />);
    await screen.findByTestId("cell-panel");
    await screen.findByRole("grid");
    fireEvent.click(screen.getByRole("button", { name: "Close the unit panel" }));
    expect(screen.queryByTestId("cell-panel")).toBeNull();
    expect(document.activeElement).toBe(grid());
  });

  it("skips to the matrix: the link puts the focus on the first grid", async () => {
    renderWithQuery(<UnitsView />);
    fireEvent.click(await screen.findByRole("link", { name: "Skip to the matrix" }));
    expect(document.activeElement).toBe(grid());
  });

  it("counts in words: one unit selected, one dataset, an ingestion request", async () => {
    server.use(
      http.get(
        "/api/v1/units/matrix",
        matrixAnswer(
          aUnitMatrix({
            sections: [aMatrixSection({ rows: [aMatrixRow()] })],
            invalidKeys: [anInvalidKey({ source: "ingestion" }), anInvalidKey({ unitKey: "2026-08-31", source: "demo" })],
          }),
        ),
      ),
    );
    renderWithQuery(<UnitsView />);
    await screen.findByRole("grid");
    expect(screen.getByText(/1 dataset × 4 units/)).toBeInTheDocument();
    fireEvent.keyDown(grid(), { key: " " });
    expect(screen.getByTestId("selection-bar")).toHaveTextContent("1 unit of stg_orders: 2026-08-17");
    const sources = within(screen.getByTestId("matrix-invalid-keys"))
      .getAllByRole("row")
      .slice(1)
      .map((r) => r.lastElementChild?.textContent);
    expect(sources).toEqual(["an ingestion request", "a demo request"]);
  });

  it("is a valid ARIA grid: a header row of columnheaders, then rows holding their rowheader and the focused gridcell", async () => {
    renderWithQuery(<UnitsView />);
    await screen.findByRole("grid");
    const rows = within(grid()).getAllByRole("row");
    expect(rows[0]).toHaveAttribute("aria-rowindex", "1");
    expect(within(rows[0]!).getAllByRole("columnheader")[0]).toHaveTextContent(/^\d+ datasets?$/);
    for (const row of rows.slice(1)) expect(within(row).getAllByRole("rowheader")).toHaveLength(1);
    // The focused cell (the active descendant) is a gridcell inside its row, after the row's header.
    const focused = document.getElementById(grid().getAttribute("aria-activedescendant")!)!;
    expect(focused).toHaveAttribute("role", "gridcell");
    expect(focused.closest("[role=row]")).not.toBeNull();
    expect(focused.closest("[role=row]")).toHaveAttribute("aria-rowindex", "2");
    expect(focused.previousElementSibling).toHaveAttribute("role", "rowheader");
  });

  it("makes the zoom and the fourteen legend states one Tab stop each, moved through with the arrows", async () => {
    renderWithQuery(<UnitsView />);
    await screen.findByRole("grid");
    const legend = screen.getByRole("toolbar", { name: "States (press to filter)" });
    const states = within(legend).getAllByRole("button");
    expect(states).toHaveLength(14);
    expect(states.filter((b) => b.tabIndex === 0)).toHaveLength(1);
    act(() => states[0]!.focus());
    fireEvent.keyDown(states[0]!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(states[1]);
    fireEvent.keyDown(states[1]!, { key: "End" });
    expect(document.activeElement).toBe(states[13]);
    const zoom = within(screen.getByRole("radiogroup", { name: "Zoom" })).getAllByRole("radio");
    expect(zoom.map((r) => r.tabIndex)).toEqual([0, -1, -1]);
    fireEvent.keyDown(zoom[0]!, { key: "ArrowRight" });
    expect(nav.get().get("zoom")).toBe("week");
  });
});
