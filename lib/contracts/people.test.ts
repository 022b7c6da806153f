import { describe, expect, it } from "vitest";
import { describeChannel } from "@/lib/contracts/people";

describe("a channel as a viewer sees it", () => {
  it("names the host, never a webhook's path, credentials or query", () => {
    expect(describeChannel({ kind: "slack", url: "https://hooks.slack.com/services/T000/B000/XXXX" })).toBe("Slack https://hooks.slack.com/…");
    expect(describeChannel({ kind: "webhook", url: "https://discord.com/api/webhooks/123/secret-token?wait=true" })).toBe("webhook https://discord.com/…");
    expect(describeChannel({ kind: "webhook", url: "https://hooks.example.com/" })).toBe("webhook https://hooks.example.com");
    expect(describeChannel({ kind: "email", address: "finance-ops@example.com" })).toBe("e-mail finance-ops@example.com");
  });
});
