import type { ZodType } from "zod";

/** An API error in words: the server's message (which names the field) and its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Fetches JSON and parses it with the feature's contract, so the UI never renders unchecked data. */
export async function apiFetch<T>(url: string, schema: ZodType<T>, init?: RequestInit): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}), ...init?.headers },
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(res.status, `${url} answered ${res.status} with a body that is not JSON`);
  }
  if (!res.ok) {
    const message = (json as { message?: string } | null)?.message ?? `${url} answered ${res.status}`;
    throw new ApiError(res.status, message);
  }
  return schema.parse(json);
}
