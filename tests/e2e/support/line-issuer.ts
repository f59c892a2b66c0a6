import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { FakeLineIssuer } from "../../support/fake-line-issuer";
import { serveFake } from "./serve-fake";

const root = path.resolve(import.meta.dirname, "../../..");
/** The built worker's local variables, which `vite preview` reads (the cloudflare plugin writes them at build time). */
const buildVars = path.join(root, "build/server/.dev.vars");

/**
 * Global setup, before the preview starts (tests/e2e/vitest.config.ts lists it first): the fake LINE issuer
 * (tests/support/fake-line-issuer.ts) over HTTP on a free loopback port, and the built worker configured to use it
 * (LINE_ISSUER, LINE_CHANNEL_ID, LINE_CHANNEL_SECRET added to its local variables; restored afterwards).
 */
export default async function setup(project: TestProject) {
  const { fake, origin: issuer, close } = await serveFake(0, (origin) => new FakeLineIssuer(origin));
  const original = existsSync(buildVars) ? readFileSync(buildVars, "utf8") : null;
  const base = original ?? (existsSync(path.join(root, ".dev.vars")) ? readFileSync(path.join(root, ".dev.vars"), "utf8") : "");
  const line = `LINE_ISSUER='${issuer}'\nLINE_CHANNEL_ID='${fake.channelId}'\nLINE_CHANNEL_SECRET='${fake.channelSecret}'\n`;
  writeFileSync(buildVars, `${base.replace(/\n?$/, "\n")}${line}`);
  project.provide("lineIssuer", issuer);

  return () => {
    if (original === null) writeFileSync(buildVars, base);
    else writeFileSync(buildVars, original);
    return close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    lineIssuer: string;
  }
}
