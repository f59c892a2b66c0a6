/** §7 response envelope shared by the worker and the browser. */
export const SUCCESS_CODE = "000000";

export type Ok<T> = { returnCode: typeof SUCCESS_CODE; returnMessage: "OK"; info: T };
export type Failure = {
  returnCode: string;
  returnMessage: string;
  requestId: string;
  issues?: { path: (string | number)[]; message: string; code?: string }[];
};
export type Envelope<T> = Ok<T> | Failure;

/** What the browser's clients answer when the request never reached the server (errors "000001"). */
export const NETWORK_FAILURE: Failure = Object.freeze({ returnCode: "000001", returnMessage: "Network error", requestId: "" });

export function ok<T>(info: T): Ok<T> {
  return { returnCode: SUCCESS_CODE, returnMessage: "OK", info };
}

export function isOk<T>(body: Envelope<T>): body is Ok<T> {
  return body.returnCode === SUCCESS_CODE;
}
