import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { useSyncExternalStore } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { anOpenFailure } from "@/test/components/builders";
import { compactClosure } from "@/lib/contracts/compact-closure";
import { compactHoldings } from "@/lib/contracts/compact-holdings";
import { compactLineageGraph } from "@/lib/contracts/compact-lineage-graph";
import type { Holdings } from "@/lib/contracts/lineage";
import { aClosure, aLineageGraph, aLineageLayout, someHoldings } from "@/test/components/lineage-builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { LineagePage } from "./LineagePage";

// The picture is the URL's (?node=…&units=…): the page writes it with history.replaceState, which
// Next syncs into useSearchParams. Here a tiny store does the same from window.location.
const nav = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  let last: string | null = null;
  let params = new URLSearchParams();
  return {
    get() {
      if (window.location.search !== last) {
        last = window.location.search;
        params = new URLSearchParams(last);
      }
      return params;
    },
    notify: () => listeners.forEach((l) => l()),
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
});
vi.mock("next/navigation", () => ({
  usePathname: () => "/lineage",
  useSearchParams: () => useSyncExternalStore(nav.subscribe, nav.get, nav.get),
}));

/** The holdings as the page asks for them (`form=compact`), or written out. */
const holdingsAnswer = (request: Request, holdings: Holdings) =>
  HttpResponse.json(new URL(request.url).searchParams.get("form") === "compact" ? compactHoldings(holdings) : holdings);

/** Every closure the page asked for, as its query string's parameters. */
let asked: Record<string, string>[] = [];

function open(query: string) {
  window.history.replaceState(null, "", `/lineage${query}`);
  return renderWithQuery(<LineagePage />);
}

const panel = () => screen.findByTestId("closure-table");
const listed = (table: HTMLElement) =>
  within(table)
    .getAllByRole("button", { name: /^Show / })
    .map((b) => b.getAttribute("aria-label"));

describe("LineagePage", () => {
  beforeEach(() => {
    asked = [];
    const replace = window.history.replaceState.bind(window.history);
    vi.spyOn(window.history, "replaceState").mockImplementation((...args) => {
      replace(...args);
      nav.notify();
    });
    const graph = aLineageGraph();
    server.use(
      http.get("/api/v1/lineage-graph", ({ request }) =>
        HttpResponse.json(new URL(request.url).searchParams.get("form") === "compact" ? { asOf: graph.asOf, ...compactLineageGraph(graph) } : graph),
      ),
      http.get("/api/v1/lineage-graph/layout", () => HttpResponse.json(aLineageLayout(graph))),
      http.get("/api/v1/lineage-graph/failures", () =>
        HttpResponse.json({ failures: [anOpenFailure(), anOpenFailure({ unitKey: "2026-08-23", tries: 1, partialRows: 0 })] }),
      ),
      http.get("/api/v1/closure", ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        asked.push(q);
        return HttpResponse.json(q.form === "compact" ? compactClosure(aClosure(q.nodeId)) : aClosure(q.nodeId));
      }),
      http.get("/api/v1/lineage-graph/holdings", ({ request }) => holdingsAnswer(request, someHoldings())),
      http.get("/api/v1/lineage-graph/people", ({ request }) =>
        HttpResponse.json({
          node: { nodeId: new URL(request.url).searchParams.get("nodeId")!, owners: [{ name: "orders-team", from: "declared" }], readBy: [] },
          recipients: [{ key: "owner:orders-team", name: "orders-team", role: "owner", consumerKind: null, people: [], channel: null, nodeIds: [] }],
        }),
      ),
      // The closure laid out alone: its nodes in a row.
      http.get("/api/v1/lineage-graph/closure-layout", ({ request }) => {
        const nodes = aClosure(new URL(request.url).searchParams.get("nodeId")!).nodes;
        const positions = Object.fromEntries(nodes.map((n, i) => [n.nodeId, { x: i * 240, y: 0 }]));
        return HttpResponse.json({ positions, width: nodes.length * 240, height: 84 });
      }),
    );
    // happy-dom lays nothing out: the canvas is given a size (React Flow reads offsetWidth/Height)
    // and the closure table's scroller a height (its virtualiser reads clientHeight), so the
    // graph is framed and the table's rows are in the DOM, as in a browser.
    const sized = (prop: "offsetWidth" | "offsetHeight" | "clientHeight", canvas: number, table: number) =>
      vi.spyOn(HTMLElement.prototype, prop, "get").mockImplementation(function (this: HTMLElement) {
        if (this.classList.contains("react-flow")) return canvas;
        return this.querySelector(":scope > [data-testid=closure-table]") ? table : 0;
      });
    sized("offsetWidth", 1000, 0);
    sized("offsetHeight", 600, 0);
    sized("clientHeight", 0, 400);
    // …and its zoom pane a box, or an animated move of the camera interpolates over a 0 × 0 view (NaN).
    const box = HTMLElement.prototype.getBoundingClientRect;
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      return this.closest(".react-flow, [data-testid=lineage-canvas-box]") ? new DOMRect(0, 0, 1000, 600) : box.call(this);
    });
    return () => vi.restoreAllMocks();
  });

  it("opened on a selection, shows that selection's closure: every node named, lit on the graph, with what it holds", async () => {
    open("?node=job%3Aorders%3Astg_orders&units=2026-08-17");
    const table = await panel();
    expect(asked).toEqual([{ nodeId: "job:orders:stg_orders", units: "2026-08-17", direction: "downstream", form: "compact" }]);
    expect(within(table).getByText(/^Downstream closure \(blast radius\)/)).toHaveTextContent(
      "Downstream closure (blast radius): 7 nodes in 7 waves, lineage as of 2026-08-26 06:00 UTC",
    );
    expect(listed(table)).toEqual([
      "Show task stg_orders in the graph",
      "Show dataset stg_orders in the graph",
      "Show task fct_orders in the graph",
      "Show dataset fct_orders in the graph",
      "Show task revenue_daily in the graph",
      "Show dataset revenue_daily in the graph",
      "Show task weekly_revenue_export in the graph",
    ]);
    const seed = screen.getByTestId("closure-row-job:orders:stg_orders");
    expect(seed).toHaveTextContent("task · selected");
    expect(within(screen.getByTestId("closure-row-job:finance:weekly_revenue_export")).getByTestId("closure-units")).toHaveTextContent("2026-W34");
    // What the units hold comes once the closure is painted.
    expect(await within(seed).findByText("partial write")).toBeInTheDocument();
    expect(within(screen.getByTestId("closure-row-job:orders:fct_orders")).getByText("never ran")).toBeInTheDocument();
    // On the graph, laid out alone: the closure lit, the seed marked, raw_orders (upstream of it) not drawn.
    expect(screen.getByTestId("lineage-canvas")).toHaveAttribute("data-closure-active", "true");
    expect(screen.getByTestId("node-job:orders:stg_orders")).toHaveAttribute("data-seed", "true");
    expect(screen.getByTestId("node-dataset:warehouse:revenue_daily")).toHaveAttribute("data-closure", "in");
    expect(screen.queryByTestId("node-dataset:warehouse:raw_orders")).toBeNull();
    expect(screen.getByTestId("selected-node")).toHaveTextContent("job:orders:stg_orders");
    expect(screen.getByTestId("open-incident")).toHaveAttribute("href", "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-17");
    // The way back to the whole lineage around it, held in the URL.
    await userEvent.click(screen.getByRole("button", { name: "Show the whole lineage" }));
    expect(await screen.findByTestId("node-dataset:warehouse:raw_orders")).toHaveAttribute("data-closure", "out");
    expect(new URLSearchParams(window.location.search).get("show")).toBe("all");
    await userEvent.click(screen.getByRole("button", { name: "Show the closure alone" }));
    await vi.waitFor(() => expect(screen.queryByTestId("node-dataset:warehouse:raw_orders")).toBeNull());
  });

  it("while the unit states are computed, says a node's suspect units are not known yet, and asks again", async () => {
    let answers = 0;
    server.use(
      http.get("/api/v1/lineage-graph/holdings", ({ request }) => {
        answers++;
        const holdings = someHoldings({ statesComputing: { done: 3, total: 10 } });
        return holdingsAnswer(request, { ...holdings, nodes: holdings.nodes.map((n, i) => (i === 1 ? { ...n, suspectUnknown: true as const } : n)) });
      }),
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    open("?node=job%3Aorders%3Astg_orders&units=2026-08-17");
    const row = await screen.findByTestId("closure-row-job:orders:fct_orders");
    expect(await within(row).findByTestId("suspect-unknown")).toHaveTextContent("suspect? computing 3 of 10 datasets' states computed");
    expect(within(screen.getByTestId("closure-row-job:orders:stg_orders")).queryByTestId("suspect-unknown")).toBeNull();
    const node = screen.getByTestId("node-job:orders:fct_orders");
    expect(within(node).getByText("suspect? computing")).toBeInTheDocument();
    const before = answers;
    await vi.advanceTimersByTimeAsync(10_500);
    await vi.waitFor(() => expect(answers).toBeGreaterThan(before));
    vi.useRealTimers();
  });

  it("search finds a node by name and selecting it shows its closure", async () => {
    open("");
    expect(await screen.findByText(/Pick a failure, click a node/)).toBeInTheDocument();
    await userEvent.type(screen.getByRole("searchbox", { name: "Search" }), "fct");
    const matches = within(screen.getByRole("list", { name: "Matching nodes" })).getAllByRole("button");
    expect(matches.map((m) => m.textContent)).toEqual(["fct_orders task · orders", "fct_orders dataset · orders"]);
    expect(asked).toEqual([]);
    await userEvent.click(matches[0]!);
    expect(listed(await panel())).toEqual([
      "Show task fct_orders in the graph",
      "Show dataset fct_orders in the graph",
      "Show task revenue_daily in the graph",
      "Show dataset revenue_daily in the graph",
      "Show task weekly_revenue_export in the graph",
    ]);
    expect(asked).toEqual([{ nodeId: "job:orders:fct_orders", direction: "downstream", form: "compact" }]);
    expect(new URLSearchParams(window.location.search).get("node")).toBe("job:orders:fct_orders");
    expect(screen.getByTestId("node-dataset:warehouse:stg_orders")).toHaveAttribute("data-closure", "out");
  });

  it("Enter in the search selects the first match; a query matching nothing says so", async () => {
    open("");
    const search = await screen.findByRole("searchbox", { name: "Search" });
    await userEvent.click(search);
    await userEvent.paste("nowhere");
    expect(screen.getByText("No node matches “nowhere”.")).toBeInTheDocument();
    await userEvent.clear(search);
    await userEvent.paste("revenue_daily");
    await userEvent.keyboard("{Enter}");
    await panel();
    // Two nodes match: the task comes first, as in the list.
    expect(asked).toEqual([{ nodeId: "job:orders:revenue_daily", direction: "downstream", form: "compact" }]);
    expect(screen.getByTestId("selected-node")).toHaveTextContent("job:orders:revenue_daily");
  });

  it("picking a current failure selects its task and unit, and the closure is of that unit", async () => {
    open("");
    const failures = await screen.findByRole("list", { name: "Current failures" });
    const pick = within(failures).getByRole("button", { name: /2026-08-23/ });
    expect(pick).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(pick);
    await panel();
    expect(asked).toEqual([{ nodeId: "job:orders:stg_orders", units: "2026-08-23", direction: "downstream", form: "compact" }]);
    expect(pick).toHaveAttribute("aria-pressed", "true");
  });

  it("asks for the upstream closure when the direction is switched", async () => {
    open("?node=job%3Aorders%3Astg_orders&units=2026-08-17");
    await panel();
    await userEvent.click(screen.getByRole("button", { name: "Upstream (built from)" }));
    await vi.waitFor(() => expect(asked.at(-1)).toEqual({ nodeId: "job:orders:stg_orders", units: "2026-08-17", direction: "upstream", form: "compact" }));
    expect(screen.getByRole("button", { name: "Upstream (built from)" })).toHaveAttribute("aria-pressed", "true");
  });

  it("says so when the closure cannot be computed", async () => {
    server.use(http.get("/api/v1/closure", () => HttpResponse.json({ message: 'units: "2026-13-01" is not a day key' }, { status: 400 })));
    open("?node=job%3Aorders%3Astg_orders&units=2026-13-01");
    expect(await screen.findByTestId("closure-error")).toHaveTextContent('The closure could not be computed: units: "2026-13-01" is not a day key');
  });

  it("asks for the closure laid out alone only once the closure's size is known", async () => {
    // Whether the closure is small enough to be laid out alone is read from the closure itself:
    // the layout is not asked while the closure is on its way.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    server.use(
      http.get("/api/v1/closure", async ({ request }) => {
        order.push("closure asked");
        await held;
        order.push("closure answered");
        return HttpResponse.json(compactClosure(aClosure(new URL(request.url).searchParams.get("nodeId")!)));
      }),
      http.get("/api/v1/lineage-graph/closure-layout", ({ request }) => {
        order.push("closure-layout asked");
        const nodes = aClosure(new URL(request.url).searchParams.get("nodeId")!).nodes;
        return HttpResponse.json({
          positions: Object.fromEntries(nodes.map((n, i) => [n.nodeId, { x: i * 240, y: 0 }])),
          width: nodes.length * 240,
          height: 84,
        });
      }),
    );
    open("?node=job%3Aorders%3Astg_orders&units=2026-08-17");
    // Past the point where the layout would have been asked: the closure is asked and the canvas measured.
    await vi.waitFor(() => expect(order).toContain("closure asked"));
    await screen.findByTestId("lineage-canvas-box");
    expect(order).toEqual(["closure asked"]);
    release();
    await vi.waitFor(() => expect(order).toEqual(["closure asked", "closure answered", "closure-layout asked"]));
    expect(await screen.findByTestId("node-job:orders:stg_orders")).toHaveAttribute("data-seed", "true");
  });
});
