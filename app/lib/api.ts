import { SUCCESS_CODE, type Envelope } from "../../worker/contract/envelope";
import { clearSession, sessionHeaders } from "./session-keys";

export type ApiOptions = { method?: string; body?: unknown; formData?: FormData; signal?: AbortSignal };

/**
 * Browser client for `/api/v7`. Sends the stored session headers (§7); a 100003 answer means the
 * session or OTP is no longer valid, so the member goes to login.
 */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<Envelope<T>> {
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
    return { returnCode: "000001", returnMessage: "Network error", requestId: "" };
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
