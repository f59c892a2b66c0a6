/** Zod-free part of ./chat.ts (which re-exports it): the browser imports this file, so pages do not bundle zod. */

/** §9: the public chatroom id is a fixed 32-character id; the home chatroom id is fixed too. */
export const PUBLIC_CHATROOM_ID = "velvetPublicChatroom000000000001";
export const HOME_CHATROOM_ID = "velvetHomeChatroom00000000000001";

/** §2: a personal chatroom is `chatroom/{md5 of member code}`: 32 lower-case hex characters. */
export const PERSONAL_CHATROOM = /^[0-9a-f]{32}$/;
/** One-to-one rooms are named by both member numbers, lower first, so both members reach the same room. */
export const DIRECT_CHATROOM = /^dm-(\d{1,12})-(\d{1,12})$/;
export const directChatroomId = (a: string, b: string) => {
  const [low, high] = [a, b].sort();
  return `dm-${low}-${high}`;
};

/** §9 page sizes: chat 500 (modal 100), message loads 200. */
export const CHAT_PAGE_SIZE = 500;
export const MESSAGE_LOAD_SIZE = 200;
