import { afterEach, beforeEach, vi } from "vitest";

/**
 * A local push service for a test file: every fetch the worker makes to https://push.test is recorded (its URL) and
 * answered 201, never sent; any other fetch goes through. Call once at the top level of the file; read `urls`.
 */
export function recordPushes() {
  const pushes = { urls: [] as string[] };
  beforeEach(() => {
    pushes.urls = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (new URL(request.url).hostname !== "push.test") return realFetch(input, init);
      pushes.urls.push(request.url);
      return new Response(null, { status: 201 });
    });
  });
  afterEach(() => vi.restoreAllMocks());
  return pushes;
}
