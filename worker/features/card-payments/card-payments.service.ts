import { sql } from "drizzle-orm";
import type Stripe from "stripe";
import { CARD_PACKAGES, cardPackage, type CardPayment, type CardPaymentStatus, type SavedCard } from "../../contract/card-payments";
import { getDb } from "../../db/client";
import { allDatabases, databaseFor } from "../../db/router";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";
import { d1Batch } from "../../db/d1-batch";
import { provider, stripeFor } from "./stripe-client";

type Caller = { memberId: string; projectCode: string };

export const packages = () => CARD_PACKAGES.map((p) => cardPackage(p.idPackage)!);

/** Where the hosted pages send the member back: always the configured origin, never a request's Host. */
const returnUrl = (env: Env, caller: Caller, query: string) => `${env.PUBLIC_ORIGIN}/${caller.projectCode.toLowerCase()}/wallet?${query}`;

/** The member's provider customer, created on first use with our member id only (no name, no email). */
async function customerFor(env: Env, stripe: Stripe, caller: Caller): Promise<string> {
  const db = getDb(env);
  const existing = await db.get<{ customerId: string }>(sql`select customer_id as customerId from card_customers where member_id = ${caller.memberId}`);
  if (existing) return existing.customerId;
  const customer = await provider(() => stripe.customers.create({ metadata: { memberId: caller.memberId, projectCode: caller.projectCode } }, { idempotencyKey: `customer:${caller.memberId}` }));
  await db.run(sql`insert or ignore into card_customers (member_id, project_code, customer_id, created_at) values (${caller.memberId}, ${caller.projectCode}, ${customer.id}, ${Date.now()})`);
  const stored = await db.get<{ customerId: string }>(sql`select customer_id as customerId from card_customers where member_id = ${caller.memberId}`);
  return stored!.customerId;
}

/**
 * Starts a hosted Checkout for a server-defined package. Our row is written first and its id travels as the
 * session's `client_reference_id`: a member who pays is credited even if we never stored the provider's answer.
 */
export async function startCheckout(env: Env, caller: Caller, idPackage: string) {
  const pack = cardPackage(idPackage);
  if (!pack) throw new AppError("cardPackageUnknown");
  const stripe = stripeFor(env);
  const customer = await customerFor(env, stripe, caller);
  const db = getDb(env);
  const row = await db.get<{ idPayment: number }>(sql`insert into card_payments (project_code, member_id, package_id, coins, amount, currency, status, created_at)
    values (${caller.projectCode}, ${caller.memberId}, ${pack.idPackage}, ${pack.coins}, ${pack.price}, ${pack.currency}, 'pending', ${Date.now()})
    returning id_payment as idPayment`);
  const idPayment = row!.idPayment;
  const session = await provider(() =>
    stripe.checkout.sessions.create(
      {
        mode: "payment",
        customer,
        client_reference_id: String(idPayment),
        line_items: [{ quantity: 1, price_data: { currency: pack.currency, unit_amount: pack.price, product_data: { name: `${pack.coins} M coins` } } }],
        // The return page only waits for the webhook: these addresses carry our own payment number, nothing to trust.
        success_url: returnUrl(env, caller, "checkout=done"),
        cancel_url: returnUrl(env, caller, "checkout=cancelled"),
        metadata: { projectCode: caller.projectCode, idPackage: pack.idPackage },
      },
      { idempotencyKey: `checkout:${caller.projectCode}:${idPayment}` },
    ),
  );
  if (!session.url) throw new AppError("cardProviderFailed");
  await db.run(sql`update card_payments set checkout_session_id = ${session.id} where id_payment = ${idPayment}`);
  return { idPayment, url: session.url };
}

type PaymentRow = {
  idPayment: number;
  packageId: string;
  coins: number;
  amount: number;
  currency: string;
  status: CardPaymentStatus;
  refundedAmount: number;
  refundedCoins: number;
  createdAt: number;
  paidAt: number | null;
};
const paymentColumns = sql`id_payment as idPayment, package_id as packageId, coins, amount, currency, status, refunded_amount as refundedAmount,
  refunded_coins as refundedCoins, created_at as createdAt, paid_at as paidAt`;

const toPayment = (r: PaymentRow): CardPayment => ({
  idPayment: r.idPayment,
  idPackage: r.packageId,
  coins: r.coins,
  amount: r.coins * 100,
  price: r.amount,
  currency: r.currency,
  status: r.status,
  refundedPrice: r.refundedAmount,
  refundedCoins: r.refundedCoins,
  dateAdd: iso(r.createdAt)!,
  datePaid: iso(r.paidAt),
});

/** The caller's own purchases only: another member's (or tenant's) payment number is "not found". */
export async function paymentOf(env: Env, caller: Caller, idPayment: number): Promise<CardPayment> {
  const row = await getDb(env).get<PaymentRow>(sql`select ${paymentColumns} from card_payments
    where id_payment = ${idPayment} and member_id = ${caller.memberId} and project_code = ${caller.projectCode}`);
  if (!row) throw new AppError("notFound");
  return toPayment(row);
}

export async function paymentsOf(env: Env, caller: Caller, pageSize: number): Promise<CardPayment[]> {
  const rows = await getDb(env).all<PaymentRow>(sql`select ${paymentColumns} from card_payments
    where member_id = ${caller.memberId} and project_code = ${caller.projectCode} order by id_payment desc limit ${pageSize}`);
  return rows.map(toPayment);
}

/** Card binding: a hosted Checkout in setup mode saves a card to the member's customer; nothing is charged. */
export async function startBinding(env: Env, caller: Caller) {
  const stripe = stripeFor(env);
  const customer = await customerFor(env, stripe, caller);
  const session = await provider(() =>
    stripe.checkout.sessions.create({
      mode: "setup",
      customer,
      currency: CARD_PACKAGES[0].currency,
      allowed_payment_method_types: ["card"],
      success_url: returnUrl(env, caller, "binding=done"),
      cancel_url: returnUrl(env, caller, "binding=cancelled"),
    }),
  );
  if (!session.url) throw new AppError("cardProviderFailed");
  return { url: session.url };
}

async function knownCustomer(env: Env, caller: Caller) {
  const row = await getDb(env).get<{ customerId: string }>(sql`select customer_id as customerId from card_customers
    where member_id = ${caller.memberId} and project_code = ${caller.projectCode}`);
  return row?.customerId ?? null;
}

/** Saved cards, read from the provider each time (we store no card data at all). */
export async function savedCards(env: Env, caller: Caller): Promise<SavedCard[]> {
  const stripe = stripeFor(env);
  const customer = await knownCustomer(env, caller);
  if (!customer) return [];
  const list = await provider(() => stripe.customers.listPaymentMethods(customer, { type: "card", limit: 20 }));
  return list.data.flatMap((pm) =>
    pm.card ? [{ idCard: pm.id, brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year }] : [],
  );
}

/** Removes a saved card of the caller's own customer; any other card id is "not found". */
export async function removeCard(env: Env, caller: Caller, idCard: string) {
  const stripe = stripeFor(env);
  const customer = await knownCustomer(env, caller);
  if (!customer || !/^pm_[A-Za-z0-9]{1,64}$/.test(idCard)) throw new AppError("notFound");
  const owned = await provider(() => stripe.customers.retrievePaymentMethod(customer, idCard), { missingIsNotFound: true });
  if (owned.customer !== customer) throw new AppError("notFound");
  await provider(() => stripe.paymentMethods.detach(idCard));
  return { removed: true };
}

// ── Webhook ────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The database that holds the payment a verified event is about (README Decisions "A tenant per database"): the
 * provider names no tenant in its path, so a Checkout event routes by the project we put in its metadata, and a
 * charge event (refund, dispute) by the database whose payment carries its payment intent. Default: the shared one.
 */
export async function databaseOfEvent(env: Env, event: Stripe.Event): Promise<D1Database> {
  if (event.type.startsWith("checkout.session.")) {
    return databaseFor(env, (event.data.object as Stripe.Checkout.Session).metadata?.projectCode);
  }
  const intent = intentOf((event.data.object as { payment_intent?: string | { id: string } | null }).payment_intent);
  if (!intent) return env.DB;
  for (const db of allDatabases(env)) {
    if (await getDb({ DB: db }).get(sql`select 1 as x from card_payments where payment_intent_id = ${intent}`)) return db;
  }
  return env.DB;
}

/**
 * A verified event, handled once by its id (README Decisions "Card payments"). The event id is recorded in the SAME
 * batch as its effect, so a failed handling is retried by the provider; the ledger's unique source key makes a
 * race of two deliveries credit once too.
 */
export async function handleEvent(env: Env, event: Stripe.Event): Promise<{ handled: boolean; duplicate: boolean }> {
  const db = getDb(env);
  const seen = await db.get(sql`select 1 as x from card_events where event_id = ${event.id}`);
  if (seen) return { handled: false, duplicate: true };
  const record = sql`insert or ignore into card_events (event_id, type, received_at) values (${event.id}, ${event.type}, ${Date.now()})`;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      await d1Batch(env, [record, ...creditStatements(event.data.object)]);
      return { handled: true, duplicate: false };
    case "checkout.session.expired":
      await d1Batch(env, [
        record,
        sql`update card_payments set status = 'expired' where ${ourRow(event.data.object)} and status = 'pending'`,
      ]);
      return { handled: true, duplicate: false };
    case "charge.refunded":
      await d1Batch(env, [record, ...(await refundStatements(env, event.data.object))]);
      return { handled: true, duplicate: false };
    case "charge.dispute.created":
    case "charge.dispute.closed":
      await d1Batch(env, [record, ...(await disputeStatements(env, event.data.object, event.type === "charge.dispute.created"))]);
      return { handled: true, duplicate: false };
    default:
      // Setup-mode completions and anything else change nothing here (saved cards are read live).
      await d1Batch(env, [record]);
      return { handled: false, duplicate: false };
  }
}

/**
 * The row a session belongs to: the one whose id it carries as `client_reference_id` (written before the provider was
 * asked), and whose stored session id, once known, is this session's.
 */
function ourRow(session: Stripe.Checkout.Session) {
  const idPayment = /^\d{1,15}$/.test(session.client_reference_id ?? "") ? Number(session.client_reference_id) : -1;
  return sql`id_payment = ${idPayment} and (checkout_session_id is null or checkout_session_id = ${session.id})`;
}

/**
 * Credits a paid Checkout: only a row we created for this session, only when the provider says paid, and only when
 * the charged amount and currency are the package's. Coins come from our row, never from the event's metadata.
 */
function creditStatements(session: Stripe.Checkout.Session) {
  if (session.mode !== "payment" || session.payment_status !== "paid") return [];
  const intent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  const at = Date.now();
  const ours = ourRow(session);
  const matches = sql`${ours} and status = 'pending' and amount = ${session.amount_total ?? -1} and currency = ${(session.currency ?? "").toLowerCase()}`;
  return [
    sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
      select project_code, member_id, 'mcoin', coins, 'cardPurchase', 'card:' || id_payment, ${at} from card_payments where ${matches}`,
    sql`update card_payments set status = 'paid', payment_intent_id = ${intent}, paid_at = ${at} where ${matches}`,
    // A paid session whose amount is not the package's credits nothing and is kept for the operators.
    sql`update card_payments set status = 'mismatch', payment_intent_id = ${intent} where ${ours} and status = 'pending'`,
  ];
}

/**
 * A refund debits the refunded share of the coins, one ledger row per refund (keyed by the cumulative refunded
 * amount, so the same refund reported twice debits once). It never takes the balance below zero: coins already
 * spent are not clawed back, the shortfall is kept on the payment row for the operators.
 */
async function refundStatements(env: Env, charge: Stripe.Charge) {
  const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : (charge.payment_intent?.id ?? null);
  if (!intent) return [];
  const row = await getDb(env).get<{ idPayment: number; memberId: string; coins: number; amount: number; refundedCoins: number }>(sql`select
    id_payment as idPayment, member_id as memberId, coins, amount, refunded_coins as refundedCoins
    from card_payments where payment_intent_id = ${intent} and status in ('paid', 'partiallyRefunded')`);
  if (!row || row.amount <= 0) return [];
  const refunded = Math.min(charge.amount_refunded, row.amount);
  const target = refunded >= row.amount ? row.coins : Math.floor((row.coins * refunded) / row.amount);
  const delta = target - row.refundedCoins;
  if (delta <= 0 && refunded < row.amount) return [];
  const status = refunded >= row.amount ? "refunded" : "partiallyRefunded";
  const at = Date.now();
  const balance = sql`(select coalesce(sum(amount), 0) from coin_ledger where member_id = ${row.memberId} and currency = 'mcoin')`;
  const pending = sql`id_payment = ${row.idPayment} and refunded_coins = ${row.refundedCoins}`;
  return [
    sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
      select project_code, member_id, 'mcoin', -min(${Math.max(delta, 0)}, max(0, ${balance})), 'cardRefund', ${`card:${row.idPayment}:refund:${refunded}`}, ${at}
      from card_payments where ${pending}`,
    sql`update card_payments set refund_shortfall = refund_shortfall + ${Math.max(delta, 0)} + coalesce((select amount from coin_ledger
        where member_id = ${row.memberId} and reason = 'cardRefund' and source_key = ${`card:${row.idPayment}:refund:${refunded}`} and created_at = ${at}), 0),
      refunded_amount = ${refunded}, refunded_coins = ${target}, status = ${status} where ${pending}`,
  ];
}

const intentOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

/**
 * A dispute (chargeback) takes the charge back while the bank decides, so the coins not yet refunded are debited the
 * way a refund debits them (never below zero; the shortfall is kept for the operators) and the payment reads
 * "disputed". Closed as won (or an inquiry closed without a chargeback), the debit is credited back and the payment
 * reads as before; lost, nothing more changes. Each step is one ledger row keyed by the dispute, written once: a
 * "closed" that arrives before its "created" leaves its row (0 when nothing was debited yet), so the late "created"
 * debits nothing. An inquiry (`warning_*`) withdraws no funds and debits nothing.
 */
async function disputeStatements(env: Env, dispute: Stripe.Dispute, opened: boolean) {
  const intent = intentOf(dispute.payment_intent);
  if (!intent) return [];
  const row = await getDb(env).get<{ idPayment: number; memberId: string; coins: number; refundedCoins: number }>(sql`select
    id_payment as idPayment, member_id as memberId, coins, refunded_coins as refundedCoins
    from card_payments where payment_intent_id = ${intent} and status in ('paid', 'partiallyRefunded', 'disputed')`);
  if (!row) return [];
  const at = Date.now();
  const debitKey = `card:${row.idPayment}:dispute:${dispute.id}`;
  const returnKey = `${debitKey}:won`;
  const debited = sql`(select -amount from coin_ledger where member_id = ${row.memberId} and reason = 'cardDispute' and source_key = ${debitKey})`;
  const returned = sql`exists (select 1 from coin_ledger where member_id = ${row.memberId} and reason = 'cardDisputeWon' and source_key = ${returnKey})`;
  if (!opened) {
    if (dispute.status === "lost") return [sql`update card_payments set status = 'disputed' where id_payment = ${row.idPayment}`];
    const before = row.refundedCoins > 0 ? "partiallyRefunded" : "paid";
    return [
      sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
        select project_code, member_id, 'mcoin', coalesce(${debited}, 0), 'cardDisputeWon', ${returnKey}, ${at}
        from card_payments where id_payment = ${row.idPayment}`,
      sql`update card_payments set status = ${before} where id_payment = ${row.idPayment} and status = 'disputed'`,
    ];
  }
  if (dispute.status.startsWith("warning_")) return [];
  const open = Math.max(row.coins - row.refundedCoins, 0);
  const balance = sql`(select coalesce(sum(amount), 0) from coin_ledger where member_id = ${row.memberId} and currency = 'mcoin')`;
  return [
    sql`insert or ignore into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at)
      select project_code, member_id, 'mcoin', -min(${open}, max(0, ${balance})), 'cardDispute', ${debitKey}, ${at}
      from card_payments where id_payment = ${row.idPayment} and status <> 'disputed' and not ${returned}`,
    sql`update card_payments set refund_shortfall = refund_shortfall + ${open} - coalesce(${debited}, 0), status = 'disputed'
      where id_payment = ${row.idPayment} and status <> 'disputed' and not ${returned}`,
  ];
}
