import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import { ok } from "../../contract/envelope";
import { DeleteAccountBody } from "../../contract/privacy";
import { SESSION_COOKIE } from "../../contract/session";
import { rateLimit } from "../../http/rate-limit";
import { requireSelf } from "../../http/tenant";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import * as privacy from "./privacy.service";

/** Account deletion and data export (§7): only the member themself, password-confirmed deletion. */
export const privacyPrivate = new Hono<AppEnv>()
  .get("/core/members/:memberId/export", async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    await rateLimit(c.env.RL_SENSITIVE, `export:${member.memberId}`);
    return c.json(ok(await privacy.exportData(c.env, member)));
  })
  .delete("/core/members/:memberId", validate("json", DeleteAccountBody), async (c) => {
    const member = requireSelf(c, c.req.param("memberId"));
    await rateLimit(c.env.RL_SENSITIVE, `delete:${member.memberId}`);
    const result = await privacy.deleteAccount(c.env, member, c.req.valid("json").password);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json(ok(result));
  });
