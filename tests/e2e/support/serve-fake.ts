import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A fake provider, written against Request and Response like the worker that calls it. */
export type Fake = { handle(request: Request): Promise<Response> };

async function toRequest(origin: string, req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = req.method === "GET" || req.method === "HEAD" || !chunks.length ? undefined : Buffer.concat(chunks);
  return new Request(`${origin}${req.url ?? "/"}`, { method: req.method, headers, body });
}

/**
 * Serves a fake third party (LINE, the card provider) over HTTP on loopback for the browser journeys; port 0 takes
 * a free one. Every response closes its connection: workerd keeps connections to a host open and reuses them, and
 * Node closes an idle one after 5 s, so a worker's request sent on a connection as Node closes it failed with
 * "Network connection lost" (miniflare fixed the same race on its own loopback server by disabling the timeout).
 */
export async function serveFake<F extends Fake>(port: number, make: (origin: string) => F): Promise<{ fake: F; origin: string; close: () => Promise<void> }> {
  let fake: F | undefined;
  let origin = "";
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const response = await fake!.handle(await toRequest(origin, req));
        res.writeHead(response.status, { ...Object.fromEntries(response.headers), connection: "close" });
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain", connection: "close" }).end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake = make(origin);
  return { fake, origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
