import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { FakeLineIssuer } from "../../support/fake-line-issuer";

const root = path.resolve(import.meta.dirname, "../../..");
/** The built worker's local variables, which `vite preview` reads (the cloudflare plugin writes them at build time). */
const buildVars = path.join(root, "build/server/.dev.vars");

async function toRequest(base: string, req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  return new Request(`${base}${req.url ?? "/"}`, { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : body });
}

/**
 * Global setup, before the preview starts (tests/e2e/vitest.config.ts lists it first): the fake LINE issuer
 * (tests/support/fake-line-issuer.ts) over HTTP on a free loopback port, and the built worker configured to use it
 * (LINE_ISSUER, LINE_CHANNEL_ID, LINE_CHANNEL_SECRET added to its local variables; restored afterwards).
 */
export default async function setup(project: TestProject) {
  let fake: FakeLineIssuer | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const response = await fake!.handle(await toRequest(issuer, req));
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake = new FakeLineIssuer(issuer);

  const original = existsSync(buildVars) ? readFileSync(buildVars, "utf8") : null;
  const base = original ?? (existsSync(path.join(root, ".dev.vars")) ? readFileSync(path.join(root, ".dev.vars"), "utf8") : "");
  const line = `LINE_ISSUER='${issuer}'\nLINE_CHANNEL_ID='${fake.channelId}'\nLINE_CHANNEL_SECRET='${fake.channelSecret}'\n`;
  writeFileSync(buildVars, `${base.replace(/\n?$/, "\n")}${line}`);
  project.provide("lineIssuer", issuer);

  return () => {
    if (original === null) writeFileSync(buildVars, base);
    else writeFileSync(buildVars, original);
    server.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    lineIssuer: string;
  }
}
