import { screen, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { anAuditListEntry } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { AuditPage } from "./AuditPage";

describe("AuditPage", () => {
  it("links each entry to its incident by title with the incident's status now, not the word 'open'", async () => {
    server.use(
      http.get("/api/v1/audit", () =>
        HttpResponse.json({
          entries: [anAuditListEntry(), anAuditListEntry({ seq: 11, incidentId: null, incident: null, kind: "note.added" })],
          nextBefore: null,
        }),
      ),
      http.get("/api/v1/audit/verify", () =>
        HttpResponse.json({ ok: true, entries: 12, headHash: "b".repeat(64), brokenAt: null, broken: [], brokenCount: 0, against: null }),
      ),
    );
    renderWithQuery(<AuditPage initial={{ kind: "", actor: "", incidentId: "" }} />);
    const [first, second] = await screen.findAllByTestId("audit-incident");
    expect(first).toHaveTextContent("stg_orders 2026-08-17 failed · resolved");
    expect(within(first!).getByRole("link", { name: "stg_orders 2026-08-17 failed" })).toHaveAttribute("href", "/incidents/inc-3");
    expect(screen.queryByRole("link", { name: "open" })).toBeNull();
    expect(second).toHaveTextContent("—");
  });
});
