import { createServer, type Server } from "node:http";
import { FakeStripe } from "../../support/fake-stripe";

/**
 * The local fake card provider for the browser journeys (README Decisions "Card payments"): the same FakeStripe the API
 * tests use, served over HTTP on E2E_PORT + 100 (the build points STRIPE_API_BASE there, vite.config.ts). Its hosted
 * page pays or saves a card, delivers the signed webhook to the preview's worker, then redirects back.
 */
export default async function setup() {
  const appPort = Number(process.env.E2E_PORT ?? 4317);
  const port = appPort + 100;
  const fake = new FakeStripe(`http://127.0.0.1:${port}`);
  fake.deliver = async (signed) => {
    const response = await fetch(`http://127.0.0.1:${appPort}/api/v7/public/core/card/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signed.signature },
      body: signed.payload,
    });
    if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
  };
  const server: Server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
        body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
      });
      const response = await fake.handle(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
