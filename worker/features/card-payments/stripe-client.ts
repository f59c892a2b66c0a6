import Stripe from "stripe";
import { AppError } from "../../lib/app-error";

/** Seconds a webhook's signed timestamp may be off from now (Stripe's own default; older events are refused). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Card payments are on only when both provider secrets are set (README Configuration); otherwise every card route
 * answers `cardPaymentsOff` and the page hides the buy button.
 */
export function cardPaymentsConfigured(env: Env): boolean {
  return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);
}

/**
 * The provider's SDK on workerd's fetch (README Decisions "Card payments"). `STRIPE_API_BASE` (a var) points it at
 * the real API or, in tests, at the local fake provider.
 */
export function stripeFor(env: Env): Stripe {
  if (!cardPaymentsConfigured(env)) throw new AppError("cardPaymentsOff");
  const base = new URL(env.STRIPE_API_BASE || "https://api.stripe.com");
  const protocol = base.protocol === "http:" ? "http" : "https";
  return new Stripe(env.STRIPE_SECRET_KEY as string, {
    httpClient: Stripe.createFetchHttpClient(),
    host: base.hostname,
    port: Number(base.port || (protocol === "http" ? 80 : 443)),
    protocol,
    maxNetworkRetries: 1,
    timeout: 10_000,
  });
}

const subtleCrypto = Stripe.createSubtleCryptoProvider();

/**
 * The webhook's signature (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, t.payload)`) checked with the webhook secret
 * and the timestamp within the tolerance, by the SDK's own verifier on Web Crypto. Anything else is refused.
 */
export async function verifiedEvent(env: Env, payload: string, signature: string | undefined): Promise<Stripe.Event> {
  const stripe = stripeFor(env);
  if (!signature) throw new AppError("cardWebhookInvalid");
  try {
    return await stripe.webhooks.constructEventAsync(payload, signature, env.STRIPE_WEBHOOK_SECRET as string, WEBHOOK_TOLERANCE_SECONDS, subtleCrypto);
  } catch {
    throw new AppError("cardWebhookInvalid");
  }
}

/** A provider call that failed (network, their 5xx) is a clear 502 for the member, never our 500. */
export async function provider<T>(call: () => Promise<T>, options: { missingIsNotFound?: boolean } = {}): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The provider's "no such object" for an id the member gave us: not found, like any record not theirs.
    if (options.missingIsNotFound && (error as { statusCode?: number }).statusCode === 404) throw new AppError("notFound");
    console.error(JSON.stringify({ msg: "card provider call failed", error: error instanceof Error ? error.message : String(error) }));
    throw new AppError("cardProviderFailed");
  }
}
