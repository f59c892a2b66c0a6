import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    /** Calls the worker's own API in-process (same handlers as the browser). */
    api: (request: Request) => Promise<Response>;
    /** CSP nonce for React Router's inline scripts. */
    nonce: string;
  }
}
