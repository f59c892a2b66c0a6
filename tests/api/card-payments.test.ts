import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/test-entry";
import { call, expectFailure, expectOk, signUp, type Member } from "../support/client";
import { FAKE_WEBHOOK_SECRET, type SignedEvent, fakeStripe as fake } from "../support/fake-stripe";

/**
 * Card payments and card binding (README Decisions "Card payments") against the local fake provider. Coins are
 * credited only by a verified webhook: signature with the webhook secret, timestamp within tolerance, once per event.
 */
// Every provider call of the worker reaches `fake` (tests/support/fake-stripe-setup.ts, tests/vitest.config.ts).
const webhook = (signed: Pick<SignedEvent, "payload" | "signature">) =>
  call("POST", "/public/core/card/webhook", { body: signed.payload, headers: { "Stripe-Signature": signed.signature } });

const mcoin = async (m: Member) => expectOk(await call("GET", `/private/core/pvs/${m.memberId}`, { as: m })).mcoin as number;
const ledger = async (m: Member) =>
  (
    await env.DB.prepare("select amount, reason, source_key as sourceKey, project_code as projectCode from coin_ledger where member_id = ? order by id_entry")
      .bind(m.memberId)
      .all<{ amount: number; reason: string; sourceKey: string; projectCode: string }>()
  ).results;

async function checkout(m: Member, idPackage = "mcoin-10") {
  const info = expectOk(await call("POST", `/private/core/card/checkout/${m.memberId}`, { as: m, body: { idPackage } }));
  const sessionId = new URL(info.url).pathname.split("/").pop()!;
  return { idPayment: info.idPayment as number, url: info.url as string, sessionId };
}

async function paid(m: Member, idPackage = "mcoin-10") {
  const started = await checkout(m, idPackage);
  const signed = await fake.signed(fake.complete(started.sessionId));
  expectOk(await webhook(signed));
  return { ...started, signed };
}

describe("packages and checkout", () => {
  it("lists the server's packages with amounts ×100 (§9) and starts a hosted checkout for one of them", async () => {
    const m = await signUp();
    const { packages } = expectOk(await call("GET", `/private/core/card/packages/${m.memberId}`, { as: m }));
    expect(packages).toContainEqual({ idPackage: "mcoin-10", coins: 10, amount: 1000, price: 300, currency: "usd" });
    const started = await checkout(m, "mcoin-50");
    expect(started.url).toBe(`https://stripe.test/pay/${started.sessionId}`);
    // The provider was asked for the package's price, with our secret key, and returns to the configured origin.
    const session = fake.sessions.get(started.sessionId)!;
    expect(session).toMatchObject({ mode: "payment", amount_total: 1200, currency: "usd" });
    expect(session.success_url).toBe(`${env.PUBLIC_ORIGIN}/smp/wallet?checkout=done`);
    expect(fake.requests.every((r) => r.authorization === "Bearer sk_test_fake_provider_for_tests_only")).toBe(true);
    // Started is not paid: no coins, the payment is pending.
    expect(await mcoin(m)).toBe(0);
    const payment = expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${started.idPayment}`, { as: m }));
    expect(payment).toMatchObject({ idPackage: "mcoin-50", coins: 50, amount: 5000, price: 1200, status: "pending", datePaid: null });
    // The buyer never sees the provider's ids.
    expect(JSON.stringify(payment)).not.toMatch(/cs_test|cus_|pi_/);
  });

  it("refuses an unknown package, and a body that names coins or a price is ignored beyond the package id", async () => {
    const m = await signUp();
    expectFailure(await call("POST", `/private/core/card/checkout/${m.memberId}`, { as: m, body: { idPackage: "mcoin-1000000" } }), 400, "400811");
    expectFailure(await call("POST", `/private/core/card/checkout/${m.memberId}`, { as: m, body: {} }), 400, "400000");
    const info = expectOk(await call("POST", `/private/core/card/checkout/${m.memberId}`, { as: m, body: { idPackage: "mcoin-10", coins: 999999, price: 1 } }));
    const session = fake.sessions.get(new URL(info.url).pathname.split("/").pop()!)!;
    expect(session.amount_total).toBe(300);
    expect((await env.DB.prepare("select count(*) as n from card_payments where member_id = ?").bind(m.memberId).first<{ n: number }>())!.n).toBe(1);
  });

  it("needs a session, and only the member's own id in the path", async () => {
    const m = await signUp();
    const other = await signUp();
    expectFailure(await call("GET", `/private/core/card/packages/${m.memberId}`, { as: null }), 401);
    expectFailure(await call("POST", `/private/core/card/checkout/${m.memberId}`, { as: other, body: { idPackage: "mcoin-10" } }), 403);
    expectFailure(await call("GET", `/private/core/card/binding/${m.memberId}`, { as: other }), 403);
  });
});

describe("webhook: coins only from a verified event", () => {
  it("credits the package's coins once, with one ledger row, after a signed checkout.session.completed", async () => {
    const m = await signUp();
    const { idPayment, signed } = await paid(m);
    expect(await mcoin(m)).toBe(10);
    expect(await ledger(m)).toEqual([{ amount: 10, reason: "cardPurchase", sourceKey: `card:${idPayment}`, projectCode: "SMP" }]);
    const payment = expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${idPayment}`, { as: m }));
    expect(payment.status).toBe("paid");
    expect(payment.datePaid).toMatch(/Z$/);
    // The same event delivered again: acknowledged, nothing credited.
    const replay = expectOk(await webhook(signed));
    expect(replay).toMatchObject({ received: true, duplicate: true });
    // The provider's retry under a NEW event id for the same session: still once (the ledger's source key).
    const session = fake.sessions.get((signed.event.data.object as { id: string }).id)!;
    const again = await fake.signed(fake.event("checkout.session.completed", fake.sessionObject(session)));
    expectOk(await webhook(again));
    expect(await mcoin(m)).toBe(10);
    expect(await ledger(m)).toHaveLength(1);
  });

  it("refuses a bad signature, a tampered body, a missing header and a stale timestamp: 400, nothing credited", async () => {
    const m = await signUp();
    const started = await checkout(m);
    const event = fake.complete(started.sessionId);
    const good = await fake.signed(event);
    const wrongSecret = await fake.signed(event, { secret: "whsec_someone_else" });
    expectFailure(await webhook(wrongSecret), 400, "400812");
    expectFailure(await webhook({ payload: good.payload.replace('"amount_total": 300', '"amount_total": 30'), signature: good.signature }), 400, "400812");
    expectFailure(await call("POST", "/public/core/card/webhook", { body: good.payload }), 400, "400812");
    expectFailure(await webhook({ payload: good.payload, signature: "t=abc,v1=zz" }), 400, "400812");
    // Signed with the right secret but ten minutes ago (tolerance 300 s): a captured delivery replayed later.
    const stale = await fake.signed(event, { secret: FAKE_WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 600 });
    expectFailure(await webhook(stale), 400, "400812");
    expect(await mcoin(m)).toBe(0);
    expect(await env.DB.prepare("select 1 from card_events where event_id = ?").bind(event.id).first()).toBeNull();
    // The genuine delivery still works afterwards.
    expectOk(await webhook(good));
    expect(await mcoin(m)).toBe(10);
  });

  it("the return page's word credits nothing: only the webhook does", async () => {
    const m = await signUp();
    const started = await checkout(m);
    fake.complete(started.sessionId);
    // The member is back (success redirect) but no webhook arrived: still pending, no coins.
    const payment = expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${started.idPayment}`, { as: m }));
    expect(payment.status).toBe("pending");
    expect(await mcoin(m)).toBe(0);
  });

  it("credits nothing when the charged amount or currency is not the package's", async () => {
    const m = await signUp();
    const started = await checkout(m, "mcoin-120");
    expectOk(await webhook(await fake.signed(fake.complete(started.sessionId, { amountTotal: 100 }))));
    expect(await mcoin(m)).toBe(0);
    expect(expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${started.idPayment}`, { as: m })).status).toBe("mismatch");
  });

  it("credits the member who started the checkout, whatever the event's metadata claims; an unknown session credits no one", async () => {
    const buyer = await signUp();
    const thief = await signUp();
    const started = await checkout(buyer);
    expectOk(await webhook(await fake.signed(fake.complete(started.sessionId, { metadata: { memberId: thief.memberId, projectCode: "SMP" } }))));
    expect(await mcoin(buyer)).toBe(10);
    expect(await mcoin(thief)).toBe(0);
    const unknown = fake.event("checkout.session.completed", {
      id: "cs_test_not_ours",
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      amount_total: 300,
      currency: "usd",
      payment_intent: "pi_not_ours",
      metadata: { memberId: thief.memberId },
    });
    expectOk(await webhook(await fake.signed(unknown)));
    expect(await mcoin(thief)).toBe(0);
  });

  it("a paid checkout finds its row even if the provider's answer was never stored; another session naming it credits nothing", async () => {
    const m = await signUp();
    const started = await checkout(m);
    // As if the worker had died between the provider's answer and storing it: the row was written first.
    await env.DB.prepare("update card_payments set checkout_session_id = null where id_payment = ?").bind(started.idPayment).run();
    expectOk(await webhook(await fake.signed(fake.complete(started.sessionId))));
    expect(await mcoin(m)).toBe(10);
    // A second paid session claiming the same payment number: the stored session id no longer matches it.
    const other = await checkout(m);
    const session = fake.sessions.get(other.sessionId)!;
    session.client_reference_id = String(started.idPayment);
    expectOk(await webhook(await fake.signed(fake.complete(other.sessionId))));
    expect(await mcoin(m)).toBe(10);
  });
});

describe("another member's or tenant's payments", () => {
  it("are not found: a payment number is only ever its buyer's", async () => {
    const a = await signUp("SMP");
    const b = await signUp("XYZ");
    const c = await signUp("SMP");
    const { idPayment } = await paid(a);
    expectFailure(await call("GET", `/private/core/card/payments/${b.memberId}/${idPayment}`, { as: b }), 404, "404000");
    expectFailure(await call("GET", `/private/core/card/payments/${c.memberId}/${idPayment}`, { as: c }), 404, "404000");
    expectFailure(await call("GET", `/private/core/card/payments/${a.memberId}/${idPayment}`, { as: b }), 403);
    expect(expectOk(await call("GET", `/private/core/card/payments/${b.memberId}`, { as: b }))).toEqual([]);
    const mine = expectOk(await call("GET", `/private/core/card/payments/${a.memberId}`, { as: a }));
    expect(mine.map((p: { idPayment: number }) => p.idPayment)).toEqual([idPayment]);
    expectFailure(await call("GET", `/private/core/card/payments/${a.memberId}/not-a-number`, { as: a }), 404);
  });

  it("a tenant's purchase is credited in that tenant's ledger", async () => {
    const b = await signUp("XYZ");
    const { idPayment } = await paid(b);
    expect(await ledger(b)).toEqual([{ amount: 10, reason: "cardPurchase", sourceKey: `card:${idPayment}`, projectCode: "XYZ" }]);
  });
});

describe("refunds", () => {
  it("a full refund debits the coins with a ledger row; replayed, it debits nothing more", async () => {
    const m = await signUp();
    const { idPayment, sessionId } = await paid(m, "mcoin-50");
    const refund = await fake.signed(fake.refund(sessionId));
    expectOk(await webhook(refund));
    expect(await mcoin(m)).toBe(0);
    expect((await ledger(m)).map((r) => [r.amount, r.reason])).toEqual([
      [50, "cardPurchase"],
      [-50, "cardRefund"],
    ]);
    expect(expectOk(await webhook(refund)).duplicate).toBe(true);
    expectOk(await webhook(await fake.signed(fake.refund(sessionId))));
    expect(await mcoin(m)).toBe(0);
    expect(await ledger(m)).toHaveLength(2);
    expect(expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${idPayment}`, { as: m }))).toMatchObject({
      status: "refunded",
      refundedPrice: 1200,
      refundedCoins: 50,
    });
  });

  it("partial refunds debit their share, one ledger row each", async () => {
    const m = await signUp();
    const { sessionId } = await paid(m, "mcoin-50");
    expectOk(await webhook(await fake.signed(fake.refund(sessionId, 600))));
    expect(await mcoin(m)).toBe(25);
    expectOk(await webhook(await fake.signed(fake.refund(sessionId, 1200))));
    expect(await mcoin(m)).toBe(0);
    expect((await ledger(m)).map((r) => r.amount)).toEqual([50, -25, -25]);
  });

  it("never takes the balance below zero: coins already spent are not clawed back, the shortfall is kept", async () => {
    const m = await signUp();
    const { idPayment, sessionId } = await paid(m, "mcoin-10");
    // The member spent 7 of the 10 coins meanwhile.
    await env.DB.prepare("insert into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values ('SMP', ?, 'mcoin', -7, 'transferOut', 'spent', ?)")
      .bind(m.memberId, Date.now())
      .run();
    expectOk(await webhook(await fake.signed(fake.refund(sessionId))));
    expect(await mcoin(m)).toBe(0);
    expect((await ledger(m)).map((r) => [r.amount, r.reason])).toEqual([
      [10, "cardPurchase"],
      [-7, "transferOut"],
      [-3, "cardRefund"],
    ]);
    const row = await env.DB.prepare("select refund_shortfall as shortfall, status from card_payments where id_payment = ?").bind(idPayment).first();
    expect(row).toEqual({ shortfall: 7, status: "refunded" });
  });
});

describe("disputes", () => {
  it("a dispute debits the open coins (never below zero) and reads 'disputed'; won, they come back once; replays move nothing", async () => {
    const m = await signUp();
    const { idPayment, sessionId } = await paid(m, "mcoin-50");
    await env.DB.prepare("insert into coin_ledger (project_code, member_id, currency, amount, reason, source_key, created_at) values ('SMP', ?, 'mcoin', -20, 'transferOut', 'spent', ?)")
      .bind(m.memberId, Date.now())
      .run();
    const opened = await fake.signed(fake.dispute(sessionId));
    expectOk(await webhook(opened));
    expectOk(await webhook(await fake.signed(fake.dispute(sessionId))));
    expect(await mcoin(m)).toBe(0);
    expect((await ledger(m)).map((r) => [r.amount, r.reason])).toEqual([
      [50, "cardPurchase"],
      [-20, "transferOut"],
      [-30, "cardDispute"],
    ]);
    const row = await env.DB.prepare("select refund_shortfall as shortfall, status from card_payments where id_payment = ?").bind(idPayment).first();
    expect(row).toEqual({ shortfall: 20, status: "disputed" });
    expect(expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${idPayment}`, { as: m })).status).toBe("disputed");
    // A refund while the bank decides changes nothing more.
    expectOk(await webhook(await fake.signed(fake.refund(sessionId))));
    expect(await mcoin(m)).toBe(0);

    const won = fake.dispute(sessionId, "won");
    expectOk(await webhook(await fake.signed(won)));
    expectOk(await webhook(await fake.signed(fake.dispute(sessionId, "won"))));
    expect(await mcoin(m)).toBe(30);
    expect((await ledger(m)).at(-1)).toMatchObject({ amount: 30, reason: "cardDisputeWon" });
    expect(expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${idPayment}`, { as: m })).status).toBe("paid");
  });

  it("a dispute closed as won before its opening arrives debits nothing later; an inquiry debits nothing", async () => {
    const m = await signUp();
    const { sessionId } = await paid(m, "mcoin-10");
    expectOk(await webhook(await fake.signed(fake.dispute(sessionId, "won"))));
    expectOk(await webhook(await fake.signed(fake.dispute(sessionId))));
    expect(await mcoin(m)).toBe(10);
    const other = await signUp();
    const second = await paid(other, "mcoin-10");
    const inquiry = fake.dispute(second.sessionId);
    (inquiry.data.object as { status: string }).status = "warning_needs_response";
    expectOk(await webhook(await fake.signed(inquiry)));
    expect(await mcoin(other)).toBe(10);
  });

  it("a lost dispute keeps the debit; a dispute on another member's or an unknown charge changes nothing", async () => {
    const m = await signUp();
    const { idPayment, sessionId } = await paid(m, "mcoin-10");
    expectOk(await webhook(await fake.signed(fake.dispute(sessionId))));
    expectOk(await webhook(await fake.signed(fake.dispute(sessionId, "lost"))));
    expect(await mcoin(m)).toBe(0);
    expect(expectOk(await call("GET", `/private/core/card/payments/${m.memberId}/${idPayment}`, { as: m })).status).toBe("disputed");
    const unknown = fake.event("charge.dispute.created", { id: "dp_unknown", object: "dispute", amount: 1200, payment_intent: "pi_unknown", status: "needs_response" });
    expectOk(await webhook(await fake.signed(unknown)));
    expect(await ledger(m)).toHaveLength(2);
  });
});

describe("a tenant with its own database", () => {
  it("its purchases and disputes are handled in its database (the provider's webhook names no tenant)", async () => {
    // A browser of a tenant with its own database names it on calls whose path does not (app/lib/session-keys.ts).
    const signed = await signUp("TST");
    const m = { ...signed, headers: { ...signed.headers, "X-Project-Code": "TST" } };
    const { idPayment, sessionId } = await paid(m, "mcoin-10");
    const row = async (db: D1Database) => db.prepare("select status from card_payments where id_payment = ? and member_id = ?").bind(idPayment, m.memberId).first<{ status: string }>();
    const tst = (env as unknown as { DB_TST: D1Database }).DB_TST;
    expect(await row(tst)).toEqual({ status: "paid" });
    expect(await row(env.DB)).toBeNull();
    const tstCoins = async () => (await tst.prepare("select coalesce(sum(amount), 0) as n from coin_ledger where member_id = ?").bind(m.memberId).first<{ n: number }>())!.n;
    expect(await tstCoins()).toBe(10);
    expectOk(await webhook(await fake.signed(fake.dispute(sessionId))));
    expect(await tstCoins()).toBe(0);
    expect(await row(tst)).toEqual({ status: "disputed" });
  });
});

describe("card binding", () => {
  it("saves a card through hosted setup, lists brand and last four only, and removes it", async () => {
    const m = await signUp();
    expect(expectOk(await call("GET", `/private/core/card/binding/${m.memberId}`, { as: m }))).toEqual([]);
    const { url } = expectOk(await call("POST", `/private/core/card/binding/${m.memberId}`, { as: m, body: {} }));
    const sessionId = new URL(url).pathname.split("/").pop()!;
    expect(fake.sessions.get(sessionId)).toMatchObject({ mode: "setup", success_url: `${env.PUBLIC_ORIGIN}/smp/wallet?binding=done` });
    const completed = fake.complete(sessionId);
    // A setup completion credits nothing.
    expectOk(await webhook(await fake.signed(completed)));
    expect(await mcoin(m)).toBe(0);
    const cards = expectOk(await call("GET", `/private/core/card/binding/${m.memberId}`, { as: m }));
    expect(cards).toEqual([{ idCard: expect.stringMatching(/^pm_/), brand: "visa", last4: "4242", expMonth: 12, expYear: 2030 }]);
    expect(JSON.stringify(cards)).not.toContain("cus_");

    // Another member (of any tenant) cannot remove it: not found, the card stays.
    const other = await signUp();
    expectOk(await call("POST", `/private/core/card/binding/${other.memberId}`, { as: other, body: {} }));
    expectFailure(await call("DELETE", `/private/core/card/binding/${other.memberId}/${cards[0].idCard}`, { as: other }), 404, "404000");
    const stranger = await signUp("XYZ");
    expectFailure(await call("DELETE", `/private/core/card/binding/${stranger.memberId}/${cards[0].idCard}`, { as: stranger }), 404, "404000");
    expect(fake.card(cards[0].idCard)?.customer).not.toBeNull();

    expect(expectOk(await call("DELETE", `/private/core/card/binding/${m.memberId}/${cards[0].idCard}`, { as: m }))).toEqual({ removed: true });
    expect(expectOk(await call("GET", `/private/core/card/binding/${m.memberId}`, { as: m }))).toEqual([]);
    expectFailure(await call("DELETE", `/private/core/card/binding/${m.memberId}/${cards[0].idCard}`, { as: m }), 404);
    expectFailure(await call("DELETE", `/private/core/card/binding/${m.memberId}/not-a-card`, { as: m }), 404);
  });
});

describe("configuration", () => {
  const base = env as unknown as Record<string, unknown>;
  async function fetchWith(changes: Record<string, string | undefined>, path: string, init?: RequestInit) {
    const target: Record<string, unknown> = { ...base };
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) delete target[name];
      else target[name] = value;
    }
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`http://velvet.test/api/v7${path}`, init), target as unknown as Env, ctx);
    await waitOnExecutionContext(ctx);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("without the provider's secrets every card route is a clear 404 cardPaymentsOff", async () => {
    const m = await signUp();
    for (const off of [{ STRIPE_SECRET_KEY: undefined }, { STRIPE_WEBHOOK_SECRET: "" }]) {
      const packages = await fetchWith(off, `/private/core/card/packages/${m.memberId}`, { headers: m.headers });
      expect(packages).toMatchObject({ status: 404, body: { returnCode: "404811" } });
      const buy = await fetchWith(off, `/private/core/card/checkout/${m.memberId}`, {
        method: "POST",
        headers: { ...m.headers, "Content-Type": "application/json" },
        body: JSON.stringify({ idPackage: "mcoin-10" }),
      });
      expect(buy).toMatchObject({ status: 404, body: { returnCode: "404811" } });
      const hook = await fetchWith(off, "/public/core/card/webhook", { method: "POST", body: "{}", headers: { "Stripe-Signature": "t=1,v1=00" } });
      expect(hook).toMatchObject({ status: 404, body: { returnCode: "404811" } });
    }
  });

  it("a provider that refuses the call is a 502 envelope, never a 500", async () => {
    const m = await signUp();
    const reply = await fetchWith({ STRIPE_SECRET_KEY: "sk_test_wrong" }, `/private/core/card/checkout/${m.memberId}`, {
      method: "POST",
      headers: { ...m.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ idPackage: "mcoin-10" }),
    });
    expect(reply).toMatchObject({ status: 502, body: { returnCode: "502811" } });
  });
});
