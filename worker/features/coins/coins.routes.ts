import { Hono } from "hono";
import { ok } from "../../contract/envelope";
import { TransferBody, TransferListQuery } from "../../contract/market";
import { AppError } from "../../lib/app-error";
import { rateLimit } from "../../http/rate-limit";
import { requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { verifyOtp } from "../session/session.service";
import * as coins from "./coins.service";

export const coinsPrivate = new Hono<AppEnv>()
  .get("/core/pvs/:memberId", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await coins.coinInfo(c.env, member.memberId)));
  })
  /**
   * §7 transfer {simpleCode, amount, otp}: the OTP comes from `POST /core/otp/{memberId}`. A retry of a
   * transfer already made (same requestId, or same code, recipient and amount) replays it without
   * needing the spent code again; a wrong code is 400103 and a spent or exhausted one 400104 (the session stays valid).
   */
  .post("/core/wallet/transfer/:memberId", validate("json", TransferBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    const body = c.req.valid("json");
    if (body.amount % 100 !== 0) throw new AppError("wholeCoinsOnly");
    await rateLimit(c.env.RL_WRITE, `write:${member.memberId}`);
    const toMemberId = await coins.transferRecipient(c.env, member, body.simpleCode);
    const idempotencyKey = await coins.transferKey({ toMemberId, amount: body.amount, otp: body.otp, requestId: body.requestId });
    const existing = await coins.findTransfer(c.env, member.memberId, idempotencyKey);
    if (existing) {
      if (existing.toMemberId !== toMemberId || existing.amount !== body.amount) throw new AppError("transferKeyReused");
      return c.json(ok(await coins.transferResult(c.env, member, existing, true)));
    }
    // Checked before the code is spent, so a short balance does not burn it; the batch re-checks atomically.
    if ((await coins.coinInfo(c.env, member.memberId)).mcoin < body.amount / 100) throw new AppError("insufficientCoins");
    // Each code guess is sensitive (replays above need no code, so they do not count).
    await rateLimit(c.env.RL_SENSITIVE, `transfer:${member.memberId}`);
    await verifyOtp(c.env, member, body.otp, idempotencyKey);
    return c.json(ok(await coins.moveCoins(c.env, member, { toMemberId, amount: body.amount, idempotencyKey })));
  })
  .get("/core/wallet/transfers/:memberId", validate("query", TransferListQuery), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    return c.json(ok(await coins.transfersOf(c.env, member, c.req.valid("query").pageSize)));
  });
