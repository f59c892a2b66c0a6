import type { ChatMessage } from "../../../worker/contract/chat";

/** §9: the public home chat preview reads 100 messages and shows them unique by member. */
export const HOME_CHAT_PREVIEW_SIZE = 100;

/**
 * Newest first, one line per member (their latest message): a page oldest first as the API gives it. Private
 * placeholders and deleted messages are skipped, so the preview shows only what was said in public.
 */
export function uniqueByMember(page: ChatMessage[]): ChatMessage[] {
  const seen = new Set<string>();
  const out: ChatMessage[] = [];
  for (let i = page.length - 1; i >= 0; i--) {
    const message = page[i]!;
    if (message.placeholder || message.deleted || seen.has(message.memberNo)) continue;
    seen.add(message.memberNo);
    out.push(message);
  }
  return out;
}
