import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { IncidentNoticesSchema, type IncidentNotices, type NoticeView } from "@/lib/contracts/notices";
import { allowedActions } from "@/lib/domain/incident-lifecycle";
import { anIncident } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { CommunicateStep } from "./CommunicateStep";

const URL = "/api/v1/incidents/inc-3/notices";

function aNotice(over: Partial<NoticeView> = {}): NoticeView {
  return {
    id: "ntc_1",
    recipientKey: "owner:finance-team",
    recipientName: "finance-team",
    channelKind: "webhook",
    channel: "webhook http://127.0.0.1:4000/notices",
    event: "opened",
    subject: "[Reparo] Incident opened: stg_orders 2026-08-17 failed",
    text: "finance-team: units you own are affected.\n- weekly_revenue_export 2026-W34",
    units: [{ nodeId: "job:finance:weekly_revenue_export", name: "weekly_revenue_export", units: [["2026-W34", "2026-W34"]] }],
    status: "sent",
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    sentAt: "2026-08-18T03:00:02.000Z",
    acknowledgedAt: null,
    acknowledgedBy: null,
    createdBy: "demo-commander",
    createdAt: "2026-08-18T03:00:00.000Z",
    ...over,
  };
}

function someNotices(over: Partial<IncidentNotices> = {}): IncidentNotices {
  return IncidentNoticesSchema.parse({
    recipients: [
      { key: "owner:finance-team", name: "finance-team", role: "owner", channel: "webhook http://127.0.0.1:4000/notices", reaches: ["weekly_revenue_export"] },
      {
        key: "owner:ml-team",
        name: "ml-team",
        role: "owner",
        channel: "webhook http://127.0.0.1:4000/notices",
        reaches: ["build_order_features", "order_features"],
      },
    ],
    notices: [
      aNotice({ acknowledgedAt: "2026-08-18T04:10:00.000Z", acknowledgedBy: "Ana (finance)" }),
      aNotice({
        id: "ntc_2",
        recipientKey: "owner:ml-team",
        recipientName: "ml-team",
        status: "failed",
        attempts: 2,
        sentAt: null,
        lastError: "connect ECONNREFUSED 127.0.0.1:4000",
        nextAttemptAt: "2026-08-18T03:01:30.000Z",
      }),
    ],
    outstandingDeliveries: [],
    defaultChannel: "webhook http://127.0.0.1:4000/notices",
    ...over,
  });
}

const validating = () => anIncident({ status: "validating", allowedActions: allowedActions("validating") });

describe("CommunicateStep", () => {
  it("lists each recipient with its channel, what it was told, who acknowledged, and an undelivered notice with its error and next try", async () => {
    server.use(http.get(URL, () => HttpResponse.json(someNotices())));
    renderWithQuery(<CommunicateStep id="inc-3" incident={validating()} next={vi.fn()} back={vi.fn()} />);
    const finance = await screen.findByTestId("recipient-finance-team");
    expect(finance).toHaveTextContent("finance-team owner · webhook http://127.0.0.1:4000/notices");
    expect(finance).toHaveTextContent("weekly_revenue_export");
    expect(within(finance).getByTestId("notice-sent")).toHaveTextContent("on open · webhook http://127.0.0.1:4000/notices · sent 2026-08-18 03:00 UTC");
    expect(within(finance).getByTestId("acknowledged")).toHaveTextContent("acknowledged by Ana (finance) 2026-08-18 04:10 UTC");
    expect(within(screen.getByTestId("recipient-ml-team")).getByTestId("notice-failed")).toHaveTextContent(
      "undelivered after 2 tries: connect ECONNREFUSED 127.0.0.1:4000 — next try 2026-08-18 03:01 UTC",
    );
    expect(screen.getByTestId("delivery-guard")).toHaveTextContent("No delivery outside holds the resolve.");
    expect(screen.queryByTestId("override-deliveries-open")).toBeNull();
  });

  it("sends the operator's edited message to the ticked recipients only", async () => {
    const sent: unknown[] = [];
    server.use(
      http.get(URL, () => HttpResponse.json(someNotices())),
      http.post(URL, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ ok: true, queued: 1, auditSeq: 12, unreachable: [] });
      }),
    );
    renderWithQuery(<CommunicateStep id="inc-3" incident={validating()} next={vi.fn()} back={vi.fn()} />);
    await userEvent.click(await screen.findByRole("checkbox", { name: "ml-team" }));
    await userEvent.type(screen.getByTestId("notice-text"), "Features for 2026-08-17 are rebuilt by 10:00 UTC.");
    await userEvent.click(screen.getByTestId("notice-send"));
    expect(await screen.findByRole("status")).toHaveTextContent("1 queued");
    expect(sent).toEqual([{ text: "Features for 2026-08-17 are rebuilt by 10:00 UTC.", recipients: ["owner:ml-team"] }]);
  });

  it("shows the deliveries holding the resolve, and a commander's reasoned way past them", async () => {
    const w33 = "weekly_revenue_export 2026-W33 (sent to sftp://finance-ledger.internal/inbound/weekly_revenue_2026-W33.csv on 2026-08-17 06:01 UTC)";
    server.use(http.get(URL, () => HttpResponse.json(someNotices({ outstandingDeliveries: [w33] }))));
    renderWithQuery(<CommunicateStep id="inc-3" incident={validating()} next={vi.fn()} back={vi.fn()} />);
    expect(await screen.findByTestId("delivery-guard")).toHaveTextContent(
      `Resolving waits on a delivery already made outside, neither re-delivered nor acknowledged:${w33}`,
    );
    expect(screen.getByTestId("override-deliveries-open")).toHaveTextContent("Resolve past the deliveries");
  });
});
