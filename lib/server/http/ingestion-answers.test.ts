import { describe, expect, it } from "vitest";
import type { LineageBatchResult, LineageIngestResult } from "@/lib/contracts/openlineage";
import type { PublishesResult } from "@/lib/contracts/ingestion-ledger";
import { outcomeOf } from "../ingestion/ingestion-outcome";
import { ingestionResponse } from "./ingestion-answers";

// The ingestion endpoints' one status table: what a producer receives for each outcome.
const NONE = { events: 0, runs: 0, attempts: 0, publishes: 0, invalidKeys: 0 };
const issue = { path: "body[1].unitKey", message: "is not a day" };
const publishes = (accepted: number, rejected: number): PublishesResult => ({
  received: accepted + rejected,
  accepted: Array.from({ length: accepted }, (_, index) => ({ index, publishId: `p${index}`, duplicate: false })) as PublishesResult["accepted"],
  rejected: Array.from({ length: rejected }, (_, i) => ({ index: accepted + i, issues: [issue] })),
  written: { publishes: accepted, runs: 0, invalidKeys: 0 },
});
const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

describe("an ingestion outcome as the producer receives it", () => {
  it("a ledger batch: 200 all in, 207 some refused, 400 none in (malformed), 422 none in (refused by the rules)", async () => {
    const all = publishes(2, 0);
    expect(await answer(ingestionResponse("publishes", outcomeOf(all, 2, 0, false)))).toEqual({ status: 200, body: all });
    const some = publishes(1, 1);
    expect(await answer(ingestionResponse("publishes", outcomeOf(some, 1, 1, true)))).toEqual({ status: 207, body: some });
    const none = publishes(0, 1);
    const refusal = { message: "body[1].unitKey: is not a day", details: { issues: [issue] }, ...none };
    expect(await answer(ingestionResponse("publishes", outcomeOf(none, 0, 1, true)))).toEqual({
      status: 400,
      body: { error: "invalid_request", ...refusal },
    });
    expect(await answer(ingestionResponse("publishes", outcomeOf(none, 0, 1, false)))).toEqual({
      status: 422,
      body: { error: "unprocessable", ...refusal },
    });
  });

  it("OpenLineage: 207 for a partly refused body, 400 for none in; the batch API answers 200 with partial_success", async () => {
    const lineage: LineageIngestResult = {
      received: 2,
      accepted: [{ index: 0, duplicate: true }],
      rejected: [{ index: 1, issues: [issue] }],
      written: NONE,
      folding: "inline",
    };
    expect((await answer(ingestionResponse("lineage", outcomeOf(lineage, 1, 1, true)))).status).toBe(207);
    const none = { ...lineage, accepted: [] };
    const refused = await answer(ingestionResponse("lineage", outcomeOf(none, 0, 1, true)));
    expect(refused).toEqual({
      status: 400,
      body: { error: "invalid_request", message: "body[1].unitKey: is not a day", details: { issues: [issue] }, ...none },
    });
    // Key order too: the error and why come first, then the result, as clients have always read it.
    expect(Object.keys(refused.body).slice(0, 4)).toEqual(["error", "message", "details", "received"]);

    const batch: LineageBatchResult = {
      status: "partial_success",
      summary: { received: 2, successful: 1, failed: 1, retriable: 0, non_retriable: 1 },
      failed_events: [{ index: 1, reason: "body[1].eventTime: missing", retriable: false }],
      accepted: [{ index: 0, duplicate: false }],
      written: NONE,
      folding: "inline",
    };
    expect(await answer(ingestionResponse("lineage-batch", outcomeOf(batch, 1, 1, true)))).toEqual({ status: 200, body: batch });
    const failed = { ...batch, accepted: [], summary: { ...batch.summary, successful: 0 } };
    expect(await answer(ingestionResponse("lineage-batch", outcomeOf(failed, 0, 1, true)))).toEqual({
      status: 400,
      body: { error: "invalid_request", message: "body[1].eventTime: missing", ...failed },
    });
  });
});
