import type { Worker } from "node:worker_threads";

/**
 * A request-and-answer thread: each request gets an id, its answer comes back with it. The
 * thread is started on the first request and again after it stopped; a thread that stops
 * rejects what it had in hand (with the caller's own error: a batch cut short is "send it
 * again", a layout "try again"). Idle, it never holds a stopping process open; with
 * `holdOpenWhileBusy` a request in flight does.
 */
export class RpcThread<Request extends object, Answer extends { id: number }> {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly options: {
      start: () => Worker;
      /** The error each request in hand gets when the thread stops (`why`: its error or exit code). */
      stopped: (why: string) => Error;
      /** Told once per stop (after an error comes the exit: one account of it). */
      onStop?: (why: string) => void;
      holdOpenWhileBusy?: boolean;
      /** A message that answers no request (it has no id): a notice the thread sends on its own, such as a step's figures. */
      onNotice?: (message: unknown) => void;
    },
  ) {}

  ask(request: Request): Promise<Answer> {
    const worker = this.thread();
    const id = ++this.next;
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (this.options.holdOpenWhileBusy) worker.ref();
      worker.postMessage({ ...request, id });
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = this.options.start();
    worker.unref();
    worker.on("message", (answer: Answer) => {
      if (typeof answer?.id !== "number") {
        this.options.onNotice?.(answer);
        return;
      }
      const w = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      w?.resolve(answer);
    });
    const gone = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.options.onStop?.(why);
      const error = this.options.stopped(why);
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
    worker.on("error", (e) => gone(e.message));
    worker.on("exit", (code) => gone(`exit code ${code}`));
    return (this.worker = worker);
  }
}

/**
 * A thread that streams one computation's results and ends: each message is handed to `receive`,
 * which says when the stream is done (true) or failed (an Error). Resolves at the end; rejects if
 * `receive` throws, the thread fails or stops first, or `signal` aborts; the thread is stopped
 * when it settles, and never holds a stopping process open (a computation cut short is started again).
 */
export function streamFromThread<Message>(
  start: () => Worker,
  receive: (m: Message) => boolean | Error,
  options: { signal?: AbortSignal; what: string },
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = start();
    worker.unref();
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    worker.on("message", (m: Message) => {
      if (settled) return;
      try {
        const end = receive(m);
        if (end instanceof Error) settle(end);
        else if (end) settle();
      } catch (e) {
        settle(e as Error);
      }
    });
    options.signal?.addEventListener("abort", () => settle(new Error("stopped: another part of the computation failed")), { once: true });
    worker.on("error", (e) => settle(e));
    worker.on("exit", (code) => settle(new Error(`the ${options.what} stopped (exit code ${code}) before the end`)));
  });
}
