import { isbot } from "isbot";
import { preload } from "react-dom";
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
  const stylesheets = pageStylesheets(routerContext);
  const stream = await renderToReadableStream(
    <StylesheetsFirst hrefs={stylesheets}>
      <ServerRouter context={routerContext} url={request.url} nonce={loadContext.nonce} />
    </StylesheetsFirst>,
    {
      nonce: loadContext.nonce,
      signal: request.signal,
      onError(error: unknown) {
        status = 500;
        console.error(JSON.stringify({ level: "error", message: "render failed", error: String(error) }));
      },
    },
  );
  if (isbot(request.headers.get("user-agent") ?? "")) await stream.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // The same stylesheets as a Link header: Cloudflare sends them as Early Hints while the worker still renders.
  if (stylesheets.length) responseHeaders.append("Link", stylesheets.map((href) => `<${href}>; rel=preload; as=style`).join(", "));
  return new Response(stream, { headers: responseHeaders, status });
}

/** The stylesheets of the routes this page renders, root first (React Router's manifest). */
function pageStylesheets(context: EntryContext): string[] {
  const hrefs = context.staticHandlerContext.matches.flatMap((match) => context.manifest.routes[match.route.id]?.css ?? []);
  return [...new Set(hrefs)];
}

/**
 * React hoists the router's module preloads (~10 scripts, 170 KB gzip) above the <link rel="stylesheet"> tags, so a
 * phone's few connections fetched every script before the page's stylesheets and the first paint waited for all of
 * them. Preloading the stylesheets here puts them first in <head> (README Decisions "Stylesheets before scripts").
 */
function StylesheetsFirst({ hrefs, children }: { hrefs: string[]; children: React.ReactNode }) {
  for (const href of hrefs) preload(href, { as: "style" });
  return children;
}
