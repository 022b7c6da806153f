import { describe, expect, it } from "vitest";
import { networkCause, peerAt, refusalWords, unansweredWords } from "./fault-words";

const AT = "http://airflow.example:8080/api/v2/dags/orders/clearTaskInstances";

describe("a peer's fault in plain words", () => {
  it("names the peer by its origin, never the path", () => {
    expect(peerAt("airflow", AT)).toBe("Airflow at http://airflow.example:8080");
    expect(peerAt("dagster", "not a url")).toBe("Dagster at not a url");
  });

  it("says why a request got no answer: refused, unknown host, or silence past the timeout", () => {
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:8080" } });
    expect(unansweredWords("airflow", AT, refused, 15_000)).toBe("Airflow at http://airflow.example:8080 is not reachable: connection refused");
    const unknown = Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } });
    expect(networkCause(unknown)).toBe("its host name is not known");
    const timeout = Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" });
    expect(unansweredWords("airflow", AT, timeout, 30_000)).toBe("Airflow at http://airflow.example:8080 did not answer within 30 s");
    expect(networkCause(new Error("socket hang up"))).toBe("socket hang up");
  });

  it("reads 401, 403 and the others as what they mean to a commander", () => {
    const base = { kind: "airflow" as const, url: AT, what: "clearing stg_orders in DAG orders", user: "reparo" };
    expect(refusalWords({ ...base, status: 401, signIn: true, what: "signing in to Airflow as reparo", detail: "Invalid credentials" })).toBe(
      "Airflow at http://airflow.example:8080 refused the password of user reparo (401) while signing in to Airflow as reparo",
    );
    expect(refusalWords({ ...base, status: 401, detail: "Token Expired" })).toBe(
      'Airflow at http://airflow.example:8080 refused the token of user reparo (401) while clearing stg_orders in DAG orders: "Token Expired"',
    );
    expect(refusalWords({ ...base, status: 403, detail: "Forbidden" })).toBe(
      'Airflow at http://airflow.example:8080: the user reparo lacks the permission for clearing stg_orders in DAG orders (403): "Forbidden"',
    );
    expect(refusalWords({ ...base, user: undefined, status: 403 })).toBe(
      "Airflow at http://airflow.example:8080: Reparo's credentials lack the permission for clearing stg_orders in DAG orders (403)",
    );
    expect(refusalWords({ ...base, status: 503, detail: "error" })).toBe(
      "Airflow at http://airflow.example:8080 failed on its side (503) while clearing stg_orders in DAG orders",
    );
    expect(refusalWords({ ...base, status: 409, detail: "already cleared" })).toBe(
      'Airflow at http://airflow.example:8080 refused clearing stg_orders in DAG orders (409): "already cleared"',
    );
  });
});
