import { Hono } from "hono";
import { z } from "zod";
import { IdParam } from "../../contract/common";
import { ok } from "../../contract/envelope";
import { MutedWordBody } from "../../contract/muted-words";
import { limitPerMember } from "../../http/rate-limit";
import type { AppEnv } from "../../http/types";
import { validate } from "../../http/validate";
import { addMutedWord, deleteMutedWord, listMutedWords } from "../members/muted-words";
import { revealGuestbookEntry } from "./guestbook.service";

const IdMutedWordParam = z.object({ idMutedWord: IdParam });
const IdGuestbookParam = z.object({ idGuestbook: IdParam });

/**
 * Muted words (README Decisions "Muted words"): the caller's own list only — like mutes, no member id in the path;
 * another member's or tenant's word is not found. Writes share the caller's RL_SOCIAL budget for mutes.
 */
export const mutedWordsPrivate = new Hono<AppEnv>()
  .get("/core/muted-words", async (c) => c.json(ok(await listMutedWords(c.env, c.get("member")))))
  .post("/core/muted-words", limitPerMember("RL_SOCIAL", "mute"), validate("json", MutedWordBody), async (c) =>
    c.json(ok(await addMutedWord(c.env, c.get("member"), c.req.valid("json")))),
  )
  .delete("/core/muted-words/:idMutedWord", limitPerMember("RL_SOCIAL", "mute"), validate("param", IdMutedWordParam), async (c) =>
    c.json(ok(await deleteMutedWord(c.env, c.get("member"), c.req.valid("param").idMutedWord))),
  )
  // "Show anyway" for a guestbook entry hidden by a muted word: the one entry, text included, to its owner or author.
  .get("/core/guestbooks/entry/:idGuestbook", validate("param", IdGuestbookParam), async (c) =>
    c.json(ok(await revealGuestbookEntry(c.env, c.get("member"), c.req.valid("param").idGuestbook))),
  );
