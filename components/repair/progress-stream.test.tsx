import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useProgress } from "@/lib/client/use-repair";
import { server } from "@/test/components/msw-server";

/** An EventSource the test drives: the listeners the hook added, by event name. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  listeners = new Map<string, ((e: unknown) => void)[]>();
  constructor(public url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(name: string, fn: (e: unknown) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
  }
  close() {}
  emit(name: string) {
    for (const fn of this.listeners.get(name) ?? []) fn(new MessageEvent(name, { data: "{}" }));
  }
}

describe("the progress stream owns what a repair's end changes", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("when the stream says the run ended, the matrix, lineage, overview, alerts, completeness and history are read again", async () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    server.use(http.get("/api/v1/incidents/inc-1/progress", () => HttpResponse.json({ run: null, total: 0, done: 0, succeeded: 0, failed: 0, pairs: [] })));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const invalidated: string[] = [];
    const spy = vi.spyOn(client, "invalidateQueries").mockImplementation(async (filters) => {
      invalidated.push(String((filters as { queryKey: unknown[] }).queryKey[0]));
    });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    renderHook(() => useProgress("inc-1", { live: true }), { wrapper });
    await vi.waitFor(() => expect(FakeEventSource.last?.url).toBe("/api/v1/incidents/inc-1/progress/stream"));
    FakeEventSource.last!.emit("end");
    await vi.waitFor(() => expect(spy).toHaveBeenCalled());
    expect(new Set(invalidated)).toEqual(new Set(["incidents", "audit", "overview", "alerts", "units", "lineage", "completeness", "history"]));
  });
});
