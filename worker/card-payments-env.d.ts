// Card payments' secrets (README Configuration): optional — without them card payments are off, not the worker.
// Declared here because `wrangler types` only sees secrets present in .dev.vars.
interface Env {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
}
