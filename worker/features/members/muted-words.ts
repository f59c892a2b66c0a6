import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { ChatMessage, ChatThread } from "../../contract/chat";
import { MUTED_WORDS_MAX, type MutedWord, type MutedWordInput } from "../../contract/muted-words";
import { SAFETY_DURATION_MS } from "../../contract/social";
import { getDb } from "../../db/client";
import { mutedWords } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { iso } from "../../lib/time";

/**
 * Muted words (README Decisions "Muted words"): the one home of the matching rule and of who mutes what. A member's
 * live phrases hide, from that member only, chat messages, notes, thread replies and guestbook entries of others
 * containing them: the server sends such an item with `mutedWord: true` and without its text, and sends the text
 * only when the member asks for that one item ("Show anyway"). Authors are never told and always see their own.
 *
 * The rule: text and phrase are compared in their match form, NFKC then lower case, so full-width and half-width
 * forms, compatibility characters and letter case do not matter. A phrase is found as a substring — the only
 * sensible rule for Japanese and Chinese, which put no spaces between words — except that where the phrase begins or
 * ends with a Latin letter or digit, the text next to it must not be one: "ass" hides "ass!" and "猫ass" but not
 * "class" (word-boundary-ish, without word lists).
 */

/** The match form of a text or phrase. */
export const matchForm = (text: string) => text.normalize("NFKC").toLowerCase();

// Letters of alphabets that space their words, and digits: where a phrase ends in one, a neighbour must not be one.
const WORD_CHAR = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}]/u;
const isWordChar = (ch: string | undefined) => ch !== undefined && WORD_CHAR.test(ch);

/** True when `textForm` (match form) contains `phraseForm` (match form) under the rule above. */
export function containsPhrase(textForm: string, phraseForm: string): boolean {
  if (!phraseForm) return false;
  const chars = [...phraseForm];
  const edgeStart = isWordChar(chars[0]);
  const edgeEnd = isWordChar(chars.at(-1));
  for (let at = textForm.indexOf(phraseForm); at !== -1; at = textForm.indexOf(phraseForm, at + 1)) {
    if (edgeStart && isWordChar(textForm[at - 1])) continue;
    if (edgeEnd && isWordChar(textForm[at + phraseForm.length])) continue;
    return true;
  }
  return false;
}

/** True when any of the member's phrases (match forms) is in `text`. */
export function hasMutedWord(text: string | null | undefined, phraseForms: readonly string[]): boolean {
  if (!text || !phraseForms.length) return false;
  const form = matchForm(text);
  return phraseForms.some((phrase) => containsPhrase(form, phrase));
}

const live = (at: number) => or(isNull(mutedWords.expiresAt), gt(mutedWords.expiresAt, at));

/** SQL: the viewer's live phrases (match forms) as a JSON array, for readers that batch it (the kept chat page). */
export const mutedPhrasesSql = (viewerId: string, at: number) =>
  sql`(select json_group_array(phrase_norm) from ${mutedWords} where member_id = ${viewerId} and (expires_at is null or expires_at > ${at}))`;

/** The member's live phrases in match form (none for a visitor). Expired rows stop applying here, no job needed. */
export async function mutedPhrasesOf(env: Env, memberId: string | null | undefined, at = Date.now()): Promise<string[]> {
  if (!memberId) return [];
  const rows = await getDb(env).select({ phrase: mutedWords.phraseNorm }).from(mutedWords).where(and(eq(mutedWords.memberId, memberId), live(at)));
  return rows.map((r) => r.phrase);
}

/**
 * The members of the tenant (but `authorId`) whose live phrases are in `text`: the rooms send them the item without
 * its text. SQL pre-selects phrases that occur anywhere in the text; the rule above decides. Null when more phrases
 * match than one read takes (accounts muting common phrases could otherwise push a real member past the cap): the
 * caller then fails closed, and every socket reads its own page.
 */
export async function membersMuting(env: Env, projectCode: string, text: string | null | undefined, authorId: string, at = Date.now()): Promise<string[] | null> {
  if (!text) return [];
  const form = matchForm(text);
  const rows = await getDb(env).all<{ memberId: string; phrase: string }>(sql`
    select member_id as memberId, phrase_norm as phrase from ${mutedWords}
    where project_code = ${projectCode} and (expires_at is null or expires_at > ${at}) and member_id <> ${authorId} and instr(${form}, phrase_norm) > 0
    limit ${MUTING_READ_LIMIT + 1}`);
  if (rows.length > MUTING_READ_LIMIT) return null;
  return [...new Set(rows.filter((r) => containsPhrase(form, r.phrase)).map((r) => r.memberId))];
}

/** How many matching phrases one live fan-out reads before it gives up on naming the muted (see membersMuting). */
export const MUTING_READ_LIMIT = 5000;

// ── what leaves the server for a member with muted words ─────────────────────────────────────────

/** The text of a chat message the viewer reads (its text payload too). */
const messageText = (m: ChatMessage) => storedText(m);

/** The text of a stored chat message or thread reply, for deciding who mutes it when it is fanned out. */
export const storedText = (stored: { message: string; payload?: { type: string; content?: string; replyContent?: string } | null }) =>
  [stored.message, stored.payload?.type === "text" ? `${stored.payload.content ?? ""}\n${stored.payload.replyContent ?? ""}` : ""].join("\n");

/** The message without its text, marked (a private placeholder or a deleted message has none to withhold). */
export const withheldMessage = (message: ChatMessage): ChatMessage =>
  message.placeholder || message.deleted ? message : { ...message, message: "", payload: null, mutedWord: true };
export const withheldThread = (thread: ChatThread): ChatThread => ({ ...thread, message: "", mutedWord: true });

/** A message as a member with muted words sees it: another's message containing one comes without its text. */
export function maskMessage(message: ChatMessage, viewerNo: string, phraseForms: readonly string[]): ChatMessage {
  let out = message;
  if (message.memberNo !== viewerNo && hasMutedWord(messageText(message), phraseForms)) out = withheldMessage(message);
  if (message.threads?.length) out = { ...out, threads: message.threads.map((t) => maskThread(t, viewerNo, phraseForms)) };
  return out;
}

export function maskThread(thread: ChatThread, viewerNo: string, phraseForms: readonly string[]): ChatThread {
  if (thread.profile?.simpleCode === viewerNo || !hasMutedWord(thread.message, phraseForms)) return thread;
  return withheldThread(thread);
}

/** A page of messages as JSON text, masked for the viewer; unchanged (not even parsed) when they mute nothing. */
export function maskPageJson(json: string, viewerNo: string, phraseForms: readonly string[]): string {
  if (!phraseForms.length) return json;
  return JSON.stringify((JSON.parse(json) as ChatMessage[]).map((m) => maskMessage(m, viewerNo, phraseForms)));
}

/** A guestbook entry (or any item with a `message` and an author card) as a member with muted words sees it. */
export function maskEntry<T extends { message: string; profile: { simpleCode: string } }>(entry: T, viewerNo: string, phraseForms: readonly string[]): T & { mutedWord?: true } {
  if (entry.profile.simpleCode === viewerNo || !hasMutedWord(entry.message, phraseForms)) return entry;
  return { ...entry, message: "", mutedWord: true };
}

// ── the member's list ────────────────────────────────────────────────────────────────────────────

type Owner = { memberId: string; projectCode: string };

const toMutedWord = (r: { idMutedWord: number; phrase: string; createdAt: number; expiresAt: number | null }): MutedWord => ({
  idMutedWord: r.idMutedWord,
  phrase: r.phrase,
  dateAdd: iso(r.createdAt)!,
  expiresAt: iso(r.expiresAt),
});

const columns = { idMutedWord: mutedWords.idMutedWord, phrase: mutedWords.phrase, createdAt: mutedWords.createdAt, expiresAt: mutedWords.expiresAt };

/** The member's live muted words, oldest first; expired ones are no longer listed (nor applied). */
export async function listMutedWords(env: Env, member: Owner, at = Date.now()): Promise<MutedWord[]> {
  const rows = await getDb(env)
    .select(columns)
    .from(mutedWords)
    .where(and(eq(mutedWords.memberId, member.memberId), eq(mutedWords.projectCode, member.projectCode), live(at)))
    .orderBy(asc(mutedWords.idMutedWord))
    .limit(MUTED_WORDS_MAX);
  return rows.map(toMutedWord);
}

/**
 * Adds a phrase (or renews one already there, whose match form is the same, with the new duration). At most
 * MUTED_WORDS_MAX live phrases: the insert itself counts them, so parallel adds cannot pass the bound (409).
 */
export async function addMutedWord(env: Env, member: Owner, input: MutedWordInput, at = Date.now()): Promise<MutedWord> {
  const db = getDb(env);
  const phraseNorm = matchForm(input.phrase);
  if (!phraseNorm.trim()) throw new AppError("badRequest");
  const ms = SAFETY_DURATION_MS[input.duration];
  const expiresAt = ms == null ? null : at + ms;
  // An expired row with the same phrase is renewed, not counted.
  const renewed = await db
    .update(mutedWords)
    .set({ phrase: input.phrase, createdAt: at, expiresAt })
    .where(and(eq(mutedWords.memberId, member.memberId), eq(mutedWords.phraseNorm, phraseNorm)))
    .returning(columns);
  if (renewed[0]) return toMutedWord(renewed[0]);
  const inserted = await db.all<{ idMutedWord: number; phrase: string; createdAt: number; expiresAt: number | null }>(sql`
    insert into ${mutedWords} (project_code, member_id, phrase, phrase_norm, created_at, expires_at)
    select ${member.projectCode}, ${member.memberId}, ${input.phrase}, ${phraseNorm}, ${at}, ${expiresAt}
    where (select count(*) from ${mutedWords} where member_id = ${member.memberId} and (expires_at is null or expires_at > ${at})) < ${MUTED_WORDS_MAX}
    on conflict (member_id, phrase_norm) do update set phrase = excluded.phrase, created_at = excluded.created_at, expires_at = excluded.expires_at
    returning id_muted_word as idMutedWord, phrase, created_at as createdAt, expires_at as expiresAt`);
  if (!inserted[0]) throw new AppError("mutedWordsFull");
  return toMutedWord(inserted[0]);
}

/** Removes one of the member's muted words; anyone else's (or another tenant's) is not found. */
export async function deleteMutedWord(env: Env, member: Owner, idMutedWord: number) {
  const deleted = await getDb(env)
    .delete(mutedWords)
    .where(and(eq(mutedWords.idMutedWord, idMutedWord), eq(mutedWords.memberId, member.memberId), eq(mutedWords.projectCode, member.projectCode)))
    .returning({ id: mutedWords.idMutedWord });
  if (!deleted.length) throw new AppError("notFound");
  return { idMutedWord, deleted: true };
}

