/** Zod-free part of ./session.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

export const SESSION_COOKIE = "velvet_session";
export const LANGUAGE_COOKIE = "velvet_language";
