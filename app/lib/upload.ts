import { NETWORK_FAILURE, SUCCESS_CODE, type Envelope } from "../../worker/contract/envelope";
import { MAX_IMAGE_PIXELS } from "../../worker/contract/media";
import { clearSession, readSession } from "./session-keys";

/**
 * Multipart POST to `/api/v7` with upload progress (fetch cannot report upload progress; XMLHttpRequest can).
 * Same headers and the same answers as `api()`: `onProgress` gets the fraction sent (0–1); a 100003 answer
 * (session over) sends the member to login.
 */
export async function uploadWithProgress<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<Envelope<T>> {
  const fitted = await fitImages(form);
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
      resolve(NETWORK_FAILURE);
    };
    xhr.send(fitted);
  });
}

/**
 * Pictures over the server's pixel cap (MAX_IMAGE_PIXELS: what a Worker can decode within its memory) are scaled
 * down here first, so a 12-megapixel phone photo still uploads; the server stores at most 600 px anyway (§5).
 */
async function fitImages(form: FormData): Promise<FormData> {
  const fitted = new FormData();
  for (const [name, value] of form.entries()) {
    fitted.append(name, typeof value === "string" || !/^image\/(png|jpeg)$/.test(value.type) ? value : await fitImage(value));
  }
  return fitted;
}

async function fitImage(file: File): Promise<File> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return file; // not decodable here: the server answers for it
  }
  const pixels = bitmap.width * bitmap.height;
  if (pixels <= MAX_IMAGE_PIXELS) {
    bitmap.close();
    return file;
  }
  const scale = Math.sqrt(MAX_IMAGE_PIXELS / pixels) * 0.99;
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.floor(bitmap.width * scale));
  canvas.height = Math.max(1, Math.floor(bitmap.height * scale));
  canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, file.type, 0.92));
  return blob ? new File([blob], file.name, { type: file.type }) : file;
}
