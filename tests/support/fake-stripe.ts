/**
 * A local fake of the few card-provider (Stripe) endpoints the worker calls, for tests (README Decisions "Card
 * payments"). Web-standard Request → Response, so the API tests run it in workerd behind a fetch spy
 * (`useFakeStripe`) and the browser journeys run it as a Node server (tests/e2e/support/fake-stripe-server.ts).
 * Webhooks are signed exactly like the provider's: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.payload")>`.
 */
export const FAKE_STRIPE_KEY = "sk_test_fake_provider_for_tests_only";
export const FAKE_WEBHOOK_SECRET = "whsec_fake_provider_for_tests_only";

type Session = {
  id: string;
  mode: "payment" | "setup";
  customer: string;
  amount_total: number | null;
  currency: string | null;
  success_url: string;
  cancel_url: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  payment_intent: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
};
type Card = { id: string; customer: string | null; brand: string; last4: string; exp_month: number; exp_year: number };
export type SignedEvent = { payload: string; signature: string; event: { id: string; type: string; data: { object: unknown } } };

let seq = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export async function signPayload(payload: string, secret = FAKE_WEBHOOK_SECRET, timestamp = Math.floor(Date.now() / 1000)) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${payload}`)));
  return `t=${timestamp},v1=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const stripeError = (status: number, message: string) => json({ error: { type: "invalid_request_error", message } }, status);
const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export class FakeStripe {
  sessions = new Map<string, Session>();
  cards = new Map<string, Card>();
  customers = new Set<string>();
  /** Every API request the worker made: method, path and the Authorization it carried. */
  requests: { method: string; path: string; authorization: string | null }[] = [];

  constructor(readonly publicBase: string) {}

  card(id: string) {
    return this.cards.get(id);
  }

  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const form = new URLSearchParams(request.method === "POST" ? new TextDecoder().decode(await request.arrayBuffer()) : "");
    if (path.startsWith("/v1/")) {
      this.requests.push({ method: request.method, path, authorization: request.headers.get("Authorization") });
      if (request.headers.get("Authorization") !== `Bearer ${FAKE_STRIPE_KEY}`) return stripeError(401, "Invalid API Key provided");
    }
    const listCards = path.match(/^\/v1\/customers\/([^/]+)\/payment_methods$/);
    const oneCard = path.match(/^\/v1\/customers\/([^/]+)\/payment_methods\/([^/]+)$/);
    const detach = path.match(/^\/v1\/payment_methods\/([^/]+)\/detach$/);
    const hosted = path.match(/^\/pay\/([^/]+)$/);
    if (request.method === "POST" && path === "/v1/customers") {
      const id = nextId("cus");
      this.customers.add(id);
      return json({ id, object: "customer", metadata: {} });
    }
    if (request.method === "POST" && path === "/v1/checkout/sessions") {
      const mode = form.get("mode") === "setup" ? "setup" : "payment";
      const id = nextId("cs_test");
      const amount = mode === "payment" ? Number(form.get("line_items[0][price_data][unit_amount]")) : null;
      const session: Session = {
        id,
        mode,
        customer: form.get("customer") ?? "",
        amount_total: amount,
        currency: mode === "payment" ? form.get("line_items[0][price_data][currency]") : form.get("currency"),
        success_url: form.get("success_url") ?? "",
        cancel_url: form.get("cancel_url") ?? "",
        status: "open",
        payment_status: mode === "payment" ? "unpaid" : "no_payment_required",
        payment_intent: null,
        client_reference_id: form.get("client_reference_id"),
        metadata: Object.fromEntries([...form].filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v])),
      };
      this.sessions.set(id, session);
      return json({ ...this.sessionObject(session), url: `${this.publicBase}/pay/${id}` });
    }
    if (request.method === "GET" && listCards) {
      const data = [...this.cards.values()].filter((c) => c.customer === listCards[1]).map((c) => this.cardObject(c));
      return json({ object: "list", data, has_more: false, url: path });
    }
    if (request.method === "GET" && oneCard) {
      const card = this.cards.get(oneCard[2]!);
      if (!card || card.customer !== oneCard[1]) return stripeError(404, `No such PaymentMethod: '${oneCard[2]}'`);
      return json(this.cardObject(card));
    }
    if (request.method === "POST" && detach) {
      const card = this.cards.get(detach[1]!);
      if (!card) return stripeError(404, `No such PaymentMethod: '${detach[1]}'`);
      card.customer = null;
      return json(this.cardObject(card));
    }
    // The hosted page (browser journeys): one button that pays (or saves a card), fires the webhook, returns.
    if (hosted) {
      const session = this.sessions.get(hosted[1]!);
      if (!session) return new Response("No such checkout", { status: 404 });
      if (request.method === "GET") return this.hostedPage(session);
      if (request.method === "POST") return this.hostedSubmit(session);
    }
    return stripeError(404, `Unrecognized request URL (${request.method}: ${path})`);
  }

  sessionObject(s: Session) {
    return { object: "checkout.session", ...s, url: s.status === "open" ? `${this.publicBase}/pay/${s.id}` : null };
  }

  cardObject(c: Card) {
    return { id: c.id, object: "payment_method", type: "card", customer: c.customer, card: { brand: c.brand, last4: c.last4, exp_month: c.exp_month, exp_year: c.exp_year } };
  }

  /** The member finishes the hosted page: a payment is paid, or a card is saved to the customer. Returns the event. */
  complete(sessionId: string, options: { amountTotal?: number; metadata?: Record<string, string> } = {}) {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    session.status = "complete";
    if (session.mode === "payment") {
      session.payment_status = "paid";
      session.payment_intent ??= nextId("pi");
      if (options.amountTotal !== undefined) session.amount_total = options.amountTotal;
    } else {
      const card: Card = { id: nextId("pm"), customer: session.customer, brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 };
      this.cards.set(card.id, card);
    }
    if (options.metadata) session.metadata = options.metadata;
    return this.event("checkout.session.completed", this.sessionObject(session));
  }

  /** The provider refunds (part of) a paid session's charge: the event `charge.refunded` with the cumulative amount. */
  refund(sessionId: string, amountRefunded?: number) {
    const session = this.sessions.get(sessionId);
    if (!session?.payment_intent) throw new Error(`session ${sessionId} is not paid`);
    const amount = session.amount_total ?? 0;
    const refunded = amountRefunded ?? amount;
    return this.event("charge.refunded", {
      id: `ch_${session.payment_intent.slice(3)}`,
      object: "charge",
      amount,
      amount_refunded: refunded,
      refunded: refunded >= amount,
      payment_intent: session.payment_intent,
      currency: session.currency,
    });
  }

  /**
   * The buyer's bank disputes a paid session's charge: `charge.dispute.created` (funds withdrawn), later
   * `charge.dispute.closed` with `won` (funds returned) or `lost`. One dispute per charge, as the provider has it.
   */
  dispute(sessionId: string, status: "needs_response" | "won" | "lost" = "needs_response") {
    const session = this.sessions.get(sessionId);
    if (!session?.payment_intent) throw new Error(`session ${sessionId} is not paid`);
    const type = status === "needs_response" ? "charge.dispute.created" : "charge.dispute.closed";
    return this.event(type, {
      id: `dp_${session.payment_intent.slice(3)}`,
      object: "dispute",
      amount: session.amount_total ?? 0,
      charge: `ch_${session.payment_intent.slice(3)}`,
      payment_intent: session.payment_intent,
      currency: session.currency,
      reason: "fraudulent",
      status,
    });
  }

  event(type: string, object: unknown) {
    return { id: nextId("evt"), object: "event", api_version: "2025-01-01", created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object } };
  }

  /** The event as the provider would deliver it: the exact bytes and their signature. */
  async signed(event: SignedEvent["event"], options: { secret?: string; timestamp?: number } = {}): Promise<SignedEvent> {
    const payload = JSON.stringify(event, null, 2);
    return { payload, signature: await signPayload(payload, options.secret, options.timestamp), event };
  }

  private hostedPage(session: Session) {
    const label = session.mode === "payment" ? `Pay ${((session.amount_total ?? 0) / 100).toFixed(2)} ${(session.currency ?? "").toUpperCase()}` : "Save card";
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Fake checkout</title></head>
<body><main><h1>Fake checkout</h1><form method="post" action="/pay/${escapeHtml(session.id)}"><button type="submit">${escapeHtml(label)}</button></form>
<a href="${escapeHtml(session.cancel_url)}">Cancel</a></main></body></html>`;
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }

  /** Set by the Node server: where the hosted page delivers its webhook. */
  deliver?: (signed: SignedEvent) => Promise<void>;

  private async hostedSubmit(session: Session) {
    if (session.status === "open") {
      const signed = await this.signed(this.complete(session.id));
      await this.deliver?.(signed);
    }
    return new Response(null, { status: 303, headers: { Location: session.success_url } });
  }
}

/** The one fake behind https://stripe.test for every API test file (installed by tests/support/fake-stripe-setup.ts). */
export const fakeStripe = new FakeStripe("https://stripe.test");

/**
 * Every fetch to https://stripe.test — the worker's provider calls (STRIPE_API_BASE in tests/vitest.config.ts) — is
 * answered by `fakeStripe`; any other goes through. A plain wrapper, not a spy: files that spy on fetch (the push
 * service) wrap it, and restoring their spies leaves it in place.
 */
export function installFakeStripe() {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    return new URL(request.url).hostname === "stripe.test" ? fakeStripe.handle(request) : realFetch(input, init);
  };
}
