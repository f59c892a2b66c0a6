import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";

// Workers have no Node streams: render with the web-streams API (stack notes).
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  let status = responseStatusCode;
  const stream = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} nonce={loadContext.nonce} />, {
    nonce: loadContext.nonce,
    signal: request.signal,
    onError(error: unknown) {
      status = 500;
      console.error(JSON.stringify({ level: "error", message: "render failed", error: String(error) }));
    },
  });
  if (isbot(request.headers.get("user-agent") ?? "")) await stream.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(stream, { headers: responseHeaders, status });
}
