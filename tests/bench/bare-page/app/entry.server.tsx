import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";

// The app's entry (app/entry.server.tsx) without its nonce: web-streams rendering, bots wait for the whole page.
export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
  const stream = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} />, { signal: request.signal });
  if (isbot(request.headers.get("user-agent") ?? "")) await stream.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(stream, { headers: responseHeaders, status: responseStatusCode });
}
