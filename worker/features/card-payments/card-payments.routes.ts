import { Hono } from "hono";
import { CardCheckoutBody, CardPaymentsQuery } from "../../contract/card-payments";
import { ok } from "../../contract/envelope";
import { AppError } from "../../lib/app-error";
import { rateLimit } from "../../http/rate-limit";
import { requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import * as cards from "./card-payments.service";
import { cardPaymentsConfigured, verifiedEvent } from "./stripe-client";
import { envOn } from "../../db/router";

/** Webhook bodies are small JSON; anything bigger is not the provider's. */
const MAX_WEBHOOK_BYTES = 256 * 1024;

/** Without the provider's secrets every card route is a clear 404 `cardPaymentsOff` (README Configuration). */
const configured = (env: Env) => {
  if (!cardPaymentsConfigured(env)) throw new AppError("cardPaymentsOff");
};

/**
 * §7 "card payment provider charges" and "card binding" (shapes not shown there; README API "Card payments").
 * Coins are credited only by the verified webhook below, never by these calls or the return page.
 */
export const cardPaymentsPrivate = new Hono<AppEnv>()
  .get("/core/card/packages/:memberId", (c) => {
    requireSelf(c, c.req.param("memberId"));
    configured(c.env);
    return c.json(ok({ packages: cards.packages() }));
  })
  .post("/core/card/checkout/:memberId", validate("json", CardCheckoutBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    configured(c.env);
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await cards.startCheckout(c.env, member, c.req.valid("json").idPackage)));
  })
  .get("/core/card/payments/:memberId", validate("query", CardPaymentsQuery), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    configured(c.env);
    return c.json(ok(await cards.paymentsOf(c.env, member, c.req.valid("query").pageSize)));
  })
  .get("/core/card/payments/:memberId/:idPayment", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    configured(c.env);
    const idPayment = Number(c.req.param("idPayment"));
    if (!Number.isSafeInteger(idPayment) || idPayment <= 0) throw new AppError("notFound");
    return c.json(ok(await cards.paymentOf(c.env, member, idPayment)));
  })
  .post("/core/card/binding/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    configured(c.env);
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await cards.startBinding(c.env, member)));
  })
  .get("/core/card/binding/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    configured(c.env);
    return c.json(ok(await cards.savedCards(c.env, member)));
  })
  .delete("/core/card/binding/:memberId/:idCard", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    configured(c.env);
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    return c.json(ok(await cards.removeCard(c.env, member, c.req.param("idCard"))));
  });

/** The provider's webhook: no session; the signature (secret, timestamp tolerance) is the only authority. */
export const cardPaymentsPublic = new Hono<AppEnv>().post("/core/card/webhook", async (c) => {
  configured(c.env);
  if (Number(c.req.header("Content-Length") ?? 0) > MAX_WEBHOOK_BYTES) throw new AppError("tooLarge");
  const payload = await c.req.text();
  if (payload.length > MAX_WEBHOOK_BYTES) throw new AppError("tooLarge");
  const event = await verifiedEvent(c.env, payload, c.req.header("Stripe-Signature"));
  // The provider names no tenant: the event is handled in the database that holds its payment (a tenant per database).
  return c.json(ok({ received: true, ...(await cards.handleEvent(envOn(c.env, await cards.databaseOfEvent(c.env, event)), event)) }));
});
