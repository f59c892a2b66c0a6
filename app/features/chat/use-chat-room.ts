import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import type { ChatMessage, Payload } from "../../../worker/contract/chat";
import type { Failure } from "../../../worker/contract/envelope";
import type { ServerEvent } from "../../../worker/contract/realtime";
import * as chat from "../../api/chat-api";
import { useRoom } from "../../lib/realtime";
import { readSession } from "../../lib/session-keys";

export type LocalMessage = ChatMessage & { pending?: boolean; failed?: boolean };

export const newRequestId = () => `web-${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(2)).join("")}`.slice(0, 64);

function upsert(list: LocalMessage[], message: LocalMessage): LocalMessage[] {
  // The sender's own optimistic copy is replaced by the stored one (same requestId).
  const byRequest = message.requestId ? list.findIndex((m) => m.pending && m.requestId === message.requestId) : -1;
  if (byRequest >= 0) {
    const next = [...list];
    next[byRequest] = message;
    return dedupe(next);
  }
  const index = list.findIndex((m) => m.idChatroomMessage === message.idChatroomMessage);
  if (index >= 0) {
    const next = [...list];
    next[index] = { ...next[index], ...message };
    return next;
  }
  return [...list, message].sort((a, b) => (a.pending ? 1 : 0) - (b.pending ? 1 : 0) || a.idChatroomMessage - b.idChatroomMessage);
}

function dedupe(list: LocalMessage[]) {
  const seen = new Set<number>();
  return list.filter((m) => {
    if (m.pending) return true;
    if (seen.has(m.idChatroomMessage)) return false;
    seen.add(m.idChatroomMessage);
    return true;
  });
}

const newestId = (list: ChatMessage[]) => list.reduce((max, m) => Math.max(max, m.idChatroomMessage), 0);

export type ChatRoomOptions = {
  pageSize?: number;
  enabled?: boolean;
  /** The first page as the page loader read it (server render): shown at once, not fetched again. */
  initial?: ChatMessage[] | null;
  /** `initial` holds only the newest messages: the whole first page is read once the page is idle. */
  initialPartial?: boolean;
};

/**
 * One chatroom in the browser: the first page from the API (or the page loader), then live events from the
 * ChatRoom object. A sent message appears at once (pending) and is confirmed when the server stores it (§4).
 */
export function useChatRoom(projectCode: string, chatroomId: string, options: ChatRoomOptions = {}) {
  const [messages, setMessages] = useState<LocalMessage[]>(() => options.initial ?? []);
  const [loaded, setLoaded] = useState(() => Boolean(options.initial));
  // True until the rest of a partial first page has been read (or failed): the list paints it in steps till then.
  const [partial, setPartial] = useState(() => Boolean(options.initial && options.initialPartial));
  const lastSeen = useRef(options.initial ? newestId(options.initial) : 0);
  // The room whose first page came with the page; the socket's replay (`since` the newest id) brings the rest.
  const fromPage = useRef(options.initial ? chatroomId : null);
  const project = projectCode.toUpperCase();

  const load = useCallback(async () => {
    const body = await chat.roomMessages(chatroomId, options.pageSize ?? 200);
    if ("info" in body) {
      setMessages(body.info);
      lastSeen.current = newestId(body.info);
    }
    setLoaded(true);
  }, [chatroomId, options.pageSize]);

  // The rest of the first page under what the page brought (README Decisions "Lighter main pages"), merged so a
  // message that arrived or was sent meanwhile stays.
  const complete = useCallback(async () => {
    const body = await chat.roomMessages(chatroomId, options.pageSize ?? 200);
    if (!("info" in body)) return setPartial(false);
    const page = body.info;
    const newest = newestId(page);
    const ids = new Set(page.map((m) => m.idChatroomMessage));
    lastSeen.current = Math.max(lastSeen.current, newest);
    // A transition: 170 older messages must not render in one blocking task (the list adds them in steps).
    startTransition(() => {
      setMessages((list) => [...page, ...list.filter((m) => !ids.has(m.idChatroomMessage) && (m.pending || m.idChatroomMessage > newest))]);
      setPartial(false);
    });
  }, [chatroomId, options.pageSize]);
  const initialPartial = options.initialPartial;

  useEffect(() => {
    if (fromPage.current === chatroomId && options.enabled !== false) {
      if (!initialPartial) return;
      const timer = setTimeout(() => void complete(), 0);
      return () => clearTimeout(timer);
    }
    fromPage.current = null;
    setPartial(false);
    setMessages([]);
    setLoaded(false);
    lastSeen.current = 0;
    if (options.enabled !== false) void load();
  }, [load, complete, initialPartial, chatroomId, options.enabled]);

  const onEvent = useCallback(
    (event: ServerEvent) => {
      switch (event.type) {
        case "chat.message":
        case "chat.edited":
          if (event.message.chatroomId !== chatroomId && !chatroomId.startsWith("dm-")) return;
          lastSeen.current = Math.max(lastSeen.current, event.message.idChatroomMessage);
          setMessages((list) => upsert(list, event.message));
          break;
        case "chat.deleted":
          setMessages((list) => list.filter((m) => m.idChatroomMessage !== event.idChatroomMessage));
          break;
        case "chat.reaction":
          setMessages((list) => list.map((m) => (m.idChatroomMessage === event.idChatroomMessage ? { ...m, replyPayload: event.replyPayload } : m)));
          break;
        case "chat.thread":
          setMessages((list) => list.map((m) => (m.idChatroomMessage === event.idChatroomMessage ? { ...m, threadCount: event.threadCount } : m)));
          break;
        case "chat.reload":
          void load();
          break;
        default:
      }
    },
    [chatroomId, load],
  );

  const { status } = useRoom({
    party: "chat-room",
    room: `${project}~${chatroomId}`,
    onEvent,
    lastSeenId: () => lastSeen.current,
    enabled: loaded && options.enabled !== false,
  });

  /** Optimistic send; resolves with the failure (if any) so the page can explain it. */
  const send = useCallback(
    async (input: { message: string; payload?: Payload; toMemberNo?: string | null; isPrivate?: boolean; preview?: string }): Promise<Failure | null> => {
      const session = readSession();
      if (!session) return { returnCode: "401000", returnMessage: "Login required", requestId: "" };
      const requestId = newRequestId();
      const now = new Date().toISOString();
      const optimistic: LocalMessage = {
        idChatroomMessage: Number.MAX_SAFE_INTEGER - Date.now(),
        idMessage: 0,
        requestId,
        chatroomId,
        message: input.preview ?? input.message,
        payload: input.payload ?? { type: "text", content: input.message },
        replyPayload: [],
        isPrivate: Boolean(input.isPrivate),
        placeholder: false,
        blurred: false,
        toMemberNo: input.toMemberNo ?? null,
        toProfile: null,
        profile: null,
        memberNo: session.memberNo,
        nickname: session.nickname,
        dateAdd: now,
        dateUdp: now,
        read: true,
        deleted: false,
        blocked: false,
        threadCount: 0,
        pending: true,
      };
      setMessages((list) => [...list, optimistic]);
      const body = await chat.postMessage(chatroomId, session.memberId, {
        message: input.message,
        payload: input.payload,
        requestId,
        toMemberNo: input.toMemberNo ?? null,
        isPrivate: Boolean(input.isPrivate),
      });
      if ("info" in body) {
        lastSeen.current = Math.max(lastSeen.current, body.info.idChatroomMessage);
        setMessages((list) => upsert(list, body.info));
        return null;
      }
      setMessages((list) => list.filter((m) => m.requestId !== requestId || !m.pending));
      return body;
    },
    [chatroomId],
  );

  const replace = useCallback((message: LocalMessage) => setMessages((list) => upsert(list, message)), []);
  const remove = useCallback((id: number) => setMessages((list) => list.filter((m) => m.idChatroomMessage !== id)), []);

  return { messages, loaded, partial, status, send, reload: load, replace, remove };
}
