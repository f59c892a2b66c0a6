import { SUCCESS_CODE, type Envelope } from "../../worker/contract/envelope";
import { clearSession, readSession } from "./session-keys";

/**
 * Multipart POST to `/api/v7` with upload progress (fetch cannot report upload progress; XMLHttpRequest can).
 * Same headers and the same answers as `api()`: `onProgress` gets the fraction sent (0–1); a 100003 answer
 * (session over) sends the member to login.
 */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<Envelope<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v7${path}`);
    const session = readSession();
    if (session) {
      xhr.setRequestHeader("X-Access-Token", session.token);
      xhr.setRequestHeader("X-Member-ID", session.memberId);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      let body: Envelope<T>;
      try {
        body = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        body = { returnCode: String(xhr.status), returnMessage: xhr.statusText, requestId: "" };
      }
      if (body.returnCode === "100003") {
        clearSession();
        location.replace(`/${location.pathname.split("/")[1] || "smp"}/login`);
      } else if (body.returnCode !== SUCCESS_CODE) {
        console.info("upload", path, body.returnCode);
      }
      resolve(body);
    };
    xhr.onerror = () => {
      // §8: network failures are only logged.
      console.warn("upload failed", path);
      resolve({ returnCode: "000001", returnMessage: "Network error", requestId: "" });
    };
    xhr.send(form);
  });
}
