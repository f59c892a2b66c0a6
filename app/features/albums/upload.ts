import type { Envelope } from "../../../worker/contract/envelope";
import { readSession } from "../../lib/session-keys";

/** Multipart upload with progress (fetch cannot report upload progress; XHR can). Same headers as `api()`. */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<Envelope<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v7${path}`);
    const session = readSession();
    if (session) {
      xhr.setRequestHeader("X-Access-Token", session.token);
      xhr.setRequestHeader("X-Member-ID", session.memberId);
    }
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      try {
        resolve(JSON.parse(xhr.responseText) as Envelope<T>);
      } catch {
        resolve({ returnCode: String(xhr.status), returnMessage: xhr.statusText, requestId: "" });
      }
    };
    xhr.onerror = () => resolve({ returnCode: "000001", returnMessage: "Network error", requestId: "" });
    xhr.send(form);
  });
}
