import { describe, expect, it } from "vitest";
import { jobRunIdIn } from "./databricks-job-run";

describe("jobRunIdIn", () => {
  it("reads the job run an ingested run's parameters name", () => {
    expect(jobRunIdIn(JSON.stringify({ databricks: { jobRunId: 4417 }, ds: "2024-03-01" }))).toBe(4417);
  });

  it("is null for parameters that name none, name it wrongly, or are not JSON", () => {
    expect(jobRunIdIn("{}")).toBeNull();
    expect(jobRunIdIn(JSON.stringify({ databricks: { jobRunId: "4417" } }))).toBeNull();
    expect(jobRunIdIn(JSON.stringify({ databricks: { jobRunId: 2 ** 60 } }))).toBeNull();
    expect(jobRunIdIn('{"databricks":')).toBeNull();
  });
});
