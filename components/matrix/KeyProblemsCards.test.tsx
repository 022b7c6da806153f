import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { aMatrixRow, aMatrixSection } from "@/test/components/builders";
import { failedUnits, KeyProblemsCards, LISTED } from "./KeyProblemsCards";

const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

describe("KeyProblemsCards", () => {
  it("finds every failed cell of every row, the latest key first", () => {
    const section = aMatrixSection({
      rows: [aMatrixRow({ name: "a", cells: "fpff" }), aMatrixRow({ name: "b", nodeId: "dataset:warehouse:b", cells: "ppbf" })],
    });
    expect(failedUnits([section]).map((f) => `${f.name} ${f.key}`)).toEqual(["a 2026-08-17", "b 2026-08-17", "a 2026-08-16", "a 2026-08-14"]);
  });

  it("lists the latest failed units only, and says how many there are", () => {
    const columns = Array.from({ length: 400 }, (_, i) => day(i));
    const section = aMatrixSection({ columns, rows: [aMatrixRow({ name: "big", cells: "f".repeat(300) + "p".repeat(100) })] });
    render(<KeyProblemsCards sections={[section]} invalidKeys={[]} />);
    const rows = within(screen.getByTestId("failed-keys")).getAllByRole("row");
    expect(rows).toHaveLength(LISTED + 1);
    expect(rows[1]).toHaveTextContent(`big${day(299)}`);
    expect(screen.getByTestId("failed-keys-more")).toHaveTextContent("The latest 100 of 300 failed units");
  });

  it("says nothing more when every failed unit is listed", () => {
    render(<KeyProblemsCards sections={[aMatrixSection()]} invalidKeys={[]} />);
    expect(within(screen.getByTestId("failed-keys")).getAllByRole("row")).toHaveLength(2);
    expect(screen.queryByTestId("failed-keys-more")).toBeNull();
  });
});
