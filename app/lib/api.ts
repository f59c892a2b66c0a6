import { NETWORK_FAILURE, SUCCESS_CODE, type Envelope } from "../../worker/contract/envelope";
import { clearSession, sessionHeaders } from "./session-keys";

export type ApiOptions = { method?: string; body?: unknown; formData?: FormData; signal?: AbortSignal };

/**
 * Browser client for `/api/v7`. Sends the stored session headers (§7); a 100003 answer means the
 * session or OTP is no longer valid, so the member goes to login.
 */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<Envelope<T>> {
  await yieldToMain();
  const headers = sessionHeaders();
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`/api/v7${path}`, {
      method: options.method ?? (options.body !== undefined || options.formData ? "POST" : "GET"),
      headers,
      body: options.formData ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    // §8: fetch failures are only logged.
    console.warn("api fetch failed", path, error);
    return NETWORK_FAILURE;
  }
  let body: Envelope<T>;
  try {
    body = (await response.json()) as Envelope<T>;
  } catch {
    body = { returnCode: String(response.status), returnMessage: response.statusText, requestId: "" };
  }
  if (body.returnCode === "100003") {
    clearSession();
    const project = location.pathname.split("/")[1] || "smp";
    location.replace(`/${project}/login`);
  } else if (body.returnCode !== SUCCESS_CODE) {
    console.info("api", path, body.returnCode);
  }
  return body;
}

/**
 * A page's effects start several calls in the task that commits it (a public profile: eight). Each fetch costs
 * ~5 ms of main thread on a throttled phone; starting each in a task of its own keeps that commit from becoming one
 * long task that holds off taps (README Decisions "Browser-only values after hydration").
 */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  // A message, not a timer: browsers clamp timers in background tabs to a second or more.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}
