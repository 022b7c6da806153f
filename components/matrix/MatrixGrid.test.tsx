import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MatrixSection } from "@/lib/contracts/units";
import { aMatrixRow, aMatrixSection } from "@/test/components/builders";
import type { Zoom } from "./aggregate";
import { HEADER_H, LABEL_W, ROW_H } from "./MatrixAxes";
import { MatrixGrid } from "./MatrixGrid";
import type { Selection } from "./selection";

// 2026-08-14 … 2026-08-17: stg_orders failed on the 17th, fct_orders duplicated the 16th and
// never ran the 17th, running_balance starts on the 16th.
const SECTION = aMatrixSection({
  rows: [
    aMatrixRow(),
    aMatrixRow({ nodeId: "dataset:warehouse:fct_orders", name: "fct_orders", writerNodeId: "job:orders:fct_orders", cells: "ppdb" }),
    aMatrixRow({ nodeId: "dataset:warehouse:running_balance", name: "running_balance", writerNodeId: "job:orders:running_balance", cells: "--pb" }),
  ],
});

function renderGrid({
  section = SECTION,
  zoom = "unit",
  open = null,
  selection = null,
}: { section?: MatrixSection; zoom?: Zoom; open?: { dataset: string; unit: string } | null; selection?: Selection | null } = {}) {
  const onOpen = vi.fn();
  const onSelect = vi.fn();
  render(<MatrixGrid section={section} zoom={zoom} highlight="" open={open} selection={selection} onOpen={onOpen} onSelect={onSelect} />);
  return { onOpen, onSelect };
}

/** Where a cell of the unit zoom is on screen (16 px columns), for a pointer to press it. */
const at = (r: number, c: number) => ({ clientX: LABEL_W + c * 16 + 4, clientY: HEADER_H + r * ROW_H + 4 });

const grid = () => screen.getByRole("grid", { name: "Unit matrix: Daily (UTC)" });
/** The focused cell: the grid's active descendant. */
const focused = () => document.getElementById(grid().getAttribute("aria-activedescendant")!)!;
const live = () => grid().nextElementSibling!;

describe("MatrixGrid", () => {
  // happy-dom lays nothing out: the grid's scroller is given a viewport (800 × 300 px, room for
  // every row and column here), so the virtualisers put the rows and columns in view in the DOM.
  beforeEach(() => {
    const size = (px: number) =>
      function (this: HTMLElement) {
        return this.getAttribute("role") === "grid" ? px : 0;
      };
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockImplementation(size(800));
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockImplementation(size(300));
    return () => vi.restoreAllMocks();
  });

  it("is an ARIA grid: a header row of columnheaders, a row per dataset with its rowheader, the focused gridcell in its row", () => {
    renderGrid();
    expect(grid()).toHaveAttribute("aria-rowcount", "4");
    expect(grid()).toHaveAttribute("aria-colcount", "5");
    const [header, ...rows] = within(grid()).getAllByRole("row");
    const columns = within(header!).getAllByRole("columnheader");
    expect(columns[0]).toHaveTextContent("3 datasets");
    expect(columns.slice(1).map((c) => [c.getAttribute("aria-colindex"), c.getAttribute("aria-label")])).toEqual([
      ["2", "2026-08-14"],
      ["3", "2026-08-15"],
      ["4", "2026-08-16"],
      ["5", "2026-08-17"],
    ]);
    expect(rows.map((r) => within(r).getByRole("rowheader").getAttribute("aria-label"))).toEqual([
      "stg_orders, pipeline orders",
      "fct_orders, pipeline orders",
      "running_balance, pipeline orders",
    ]);
    expect(rows.map((r) => r.getAttribute("aria-rowindex"))).toEqual(["2", "3", "4"]);
    // It opens on the latest data: stg_orders' failed 2026-08-17, a gridcell of the first row.
    expect(focused()).toHaveAttribute("role", "gridcell");
    expect(focused()).toHaveAttribute("aria-colindex", "5");
    expect(focused()).toHaveAccessibleName("stg_orders · 2026-08-17: failed — no publish: the latest attempt failed");
    expect(focused().closest("[role=row]")).toBe(rows[0]);
  });

  it("is one Tab stop, and the arrows, Home, End and the page keys move the focused cell, saying each one aloud", async () => {
    renderGrid();
    await userEvent.tab();
    expect(document.activeElement).toBe(grid());
    await userEvent.keyboard("{ArrowDown}");
    expect(focused()).toHaveAccessibleName("fct_orders · 2026-08-17: blocked (upstream failed) — no publish: an upstream unit failed, so this never ran");
    expect(live()).toHaveTextContent("fct_orders · 2026-08-17: blocked (upstream failed)");
    await userEvent.keyboard("{ArrowLeft}");
    expect(focused()).toHaveAccessibleName("fct_orders · 2026-08-16: duplicate — more than one copy of its rows");
    await userEvent.keyboard("{Home}");
    expect(focused()).toHaveAccessibleName("fct_orders · 2026-08-14: published");
    await userEvent.keyboard("{ArrowUp}");
    expect(focused()).toHaveAccessibleName("stg_orders · 2026-08-14: published");
    await userEvent.keyboard("{ArrowRight}{ArrowDown}");
    expect(focused()).toHaveAccessibleName("fct_orders · 2026-08-15: published");
    await userEvent.keyboard("{PageDown}{Home}");
    expect(focused()).toHaveAccessibleName("running_balance · 2026-08-14: no unit expected");
    await userEvent.keyboard("{End}");
    expect(focused()).toHaveAccessibleName(/^running_balance · 2026-08-17: blocked/);
    // At the edges it stays put.
    await userEvent.keyboard("{ArrowRight}{ArrowDown}");
    expect(focused()).toHaveAccessibleName(/^running_balance · 2026-08-17: blocked/);
    await userEvent.keyboard("{PageUp}");
    expect(focused()).toHaveAccessibleName(/^stg_orders · 2026-08-17: failed/);
    expect(focused().closest("[role=row]")).toHaveAttribute("aria-rowindex", "2");
  });

  it("Enter opens the focused unit: its dataset and key go to the page", async () => {
    const { onOpen } = renderGrid();
    await userEvent.tab();
    await userEvent.keyboard("{ArrowDown}{ArrowLeft}{Enter}");
    expect(onOpen).toHaveBeenCalledExactlyOnceWith("dataset:warehouse:fct_orders", "2026-08-16");
  });

  it("Enter on a day the dataset expects no unit opens nothing, as a click there does", async () => {
    const { onOpen } = renderGrid();
    await userEvent.tab();
    await userEvent.keyboard("{ArrowDown}{ArrowDown}{Home}");
    expect(focused()).toHaveAccessibleName(/^running_balance · 2026-08-14/);
    await userEvent.keyboard("{Enter}");
    expect(onOpen).not.toHaveBeenCalled();
  });

  it("a click opens the unit under the pointer; with Ctrl it toggles it in the selection, with Shift it selects the run from the first; a cell with no unit does nothing", () => {
    const { onOpen, onSelect } = renderGrid({
      selection: { dataset: "dataset:warehouse:fct_orders", writerNodeId: "job:orders:fct_orders", keys: ["2026-08-17"] },
    });
    fireEvent.click(grid(), at(0, 2));
    expect(onOpen).toHaveBeenCalledExactlyOnceWith("dataset:warehouse:stg_orders", "2026-08-16");
    expect(focused()).toHaveAccessibleName("stg_orders · 2026-08-16: published");
    fireEvent.click(grid(), { ...at(1, 2), ctrlKey: true });
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ nodeId: "dataset:warehouse:fct_orders" }), ["2026-08-16"], "toggle");
    fireEvent.click(grid(), { ...at(1, 0), shiftKey: true });
    expect(onSelect).toHaveBeenLastCalledWith(expect.anything(), ["2026-08-14", "2026-08-15", "2026-08-16", "2026-08-17"], "replace");
    // running_balance expects no unit before 2026-08-16; the row labels are not cells either.
    fireEvent.click(grid(), at(2, 0));
    fireEvent.click(grid(), { clientX: 20, clientY: HEADER_H + 4 });
    expect(onOpen).toHaveBeenCalledOnce();
    expect(onSelect).toHaveBeenCalledTimes(2);
  });

  it("Space selects the focused unit with its row (the writer a repair re-runs); Shift+arrow extends the selection from its first unit", async () => {
    const { onSelect } = renderGrid({ selection: { dataset: "dataset:warehouse:fct_orders", writerNodeId: "job:orders:fct_orders", keys: ["2026-08-17"] } });
    await userEvent.tab();
    await userEvent.keyboard("{ArrowDown}");
    // The selection is shown on the cell that holds it.
    expect(focused()).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{Shift>}{ArrowLeft}{ArrowLeft}{/Shift}");
    expect(onSelect).toHaveBeenNthCalledWith(1, expect.objectContaining({ nodeId: "dataset:warehouse:fct_orders" }), ["2026-08-16", "2026-08-17"], "replace");
    expect(onSelect).toHaveBeenLastCalledWith(expect.anything(), ["2026-08-15", "2026-08-16", "2026-08-17"], "replace");
    // The page holds the selection: until it changes it, 2026-08-15 is not in it.
    expect(focused()).toHaveAccessibleName(/^fct_orders · 2026-08-15/);
    expect(focused()).toHaveAttribute("aria-selected", "false");
    await userEvent.keyboard("{ArrowUp}{ }");
    expect(onSelect).toHaveBeenLastCalledWith(
      expect.objectContaining({ nodeId: "dataset:warehouse:stg_orders", writerNodeId: "job:orders:stg_orders" }),
      ["2026-08-15"],
      "toggle",
    );
    expect(focused()).toHaveAttribute("aria-selected", "false");
  });

  it("opens on the unit a link opened", () => {
    renderGrid({ open: { dataset: "dataset:warehouse:running_balance", unit: "2026-08-16" } });
    expect(focused()).toHaveAccessibleName("running_balance · 2026-08-16: published");
    expect(focused().closest("[role=row]")).toHaveAttribute("aria-rowindex", "4");
  });

  it("zoomed out to weeks, a cell is the worst of its units, and Space selects every unit of it", async () => {
    const { onSelect, onOpen } = renderGrid({ zoom: "week" });
    expect(grid()).toHaveAttribute("aria-colcount", "3");
    expect(focused()).toHaveAccessibleName("stg_orders · 2026-W34: failed — no publish: the latest attempt failed");
    await userEvent.tab();
    await userEvent.keyboard("{ArrowDown}{ArrowLeft}");
    expect(focused()).toHaveAccessibleName("fct_orders · 2026-W33: duplicate (worst of 3 units) — more than one copy of its rows");
    await userEvent.keyboard("{ }{Enter}");
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ name: "fct_orders" }), ["2026-08-14", "2026-08-15", "2026-08-16"], "toggle");
    // Enter opens the unit that gives the week its state.
    expect(onOpen).toHaveBeenCalledWith("dataset:warehouse:fct_orders", "2026-08-16");
  });
});
