import type PartySocket from "partysocket";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ClientEvent, ServerEvent } from "../../worker/contract/realtime";
import { NETWORK_FAILURE, type Envelope } from "../../worker/contract/envelope";
import type { SessionTicket } from "../../worker/contract/session";
import { SOCKET_CLOSE, SOCKET_FINAL_CLOSE_CODES, socketProtocols } from "../../worker/contract/session.constants";
import { api } from "./api";
import { lateModule } from "./late-module";
import { sessionHeaders } from "./session-keys";

export type SocketStatus = "connecting" | "open" | "closed";

type EventParser = (typeof import("../../worker/contract/server-event"))["parseServerEvent"];
let eventParser: EventParser | null = null;
let eventParserLoading: Promise<EventParser> | null = null;

/**
 * The contract's event schemas, loaded with the first socket rather than with every page: zod is ~25 KB of gzip
 * that no page needs to render. A socket cannot deliver anything before its ticket call anyway.
 */
function loadEventParser(): Promise<EventParser> {
  // zod builds its parsers when the schemas are defined: it must not probe `new Function` then, because the page
  // CSP has no 'unsafe-eval' and the caught probe is still reported as a violation. Pages import zod nowhere else
  // (tests/unit/client-imports.test.ts).
  const zodConfig = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  zodConfig.__zod_globalConfig = { ...zodConfig.__zod_globalConfig, jitless: true };
  // zod itself first, and the contract's module in a later task: evaluated together they were one ~190 ms task at
  // Lighthouse's 4x slowdown (most of it zod's own set-up), which counts whole in total blocking time. Each event
  // type's schema is then built when an event of that type first comes.
  eventParserLoading ??= import("zod")
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => import("../../worker/contract/server-event"))
    .then(
    (m) => (eventParser = m.parseServerEvent),
    (error) => {
      eventParserLoading = null; // the next message tries again
      throw error;
    },
  );
  return eventParserLoading;
}

/** partysocket comes with a page's first room, after hydration: no page needs it to render (README Decisions
 * "Small stylesheets ride with the app's; js-md5 and partysocket come after hydration"). */
const partySocket = lateModule(() => import("partysocket"));

/**
 * Background calls of the real-time layer (tickets, key publishing): unlike `api()`, an ended session does not
 * send the member to login from here; the page's own calls do that, so a logout never races a second redirect.
 */
export async function backgroundApi<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<Envelope<T>> {
  // The stored keys when this browser has them; otherwise the HttpOnly session cookie speaks for the member (a
  // session that only has its cookie still gets its socket tickets).
  const keys = sessionHeaders();
  try {
    const response = await fetch(`/api/v7${path}`, {
      method: options.method ?? (options.body !== undefined ? "POST" : "GET"),
      headers: { ...keys, ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      credentials: "same-origin",
    });
    return (await response.json()) as Envelope<T>;
  } catch (error) {
    console.info("realtime: background call failed", path, error);
    return NETWORK_FAILURE;
  }
}

/** Answers to a ticket call meaning this browser's session is gone: reconnecting cannot help. */
const ENDED_SESSION_CODES = new Set(["100003", "401000"]);

/**
 * A short-lived socket ticket (60 s) for every (re)connect: the session itself never travels in a URL. Null when
 * the session has ended (the socket then stops instead of retrying forever).
 */
async function socketTicket(): Promise<string | null> {
  const body = await backgroundApi<SessionTicket>("/private/core/sessions/ticket", { body: { audience: "socket" } });
  if ("info" in body) return body.info.ticket;
  return ENDED_SESSION_CODES.has(body.returnCode) ? null : "";
}

/**
 * A room closed the socket because its session ended (logout elsewhere, password change or reset, deletion,
 * suspension, expiry): one API call decides — a 100003 answer sends the member to login through `api()`. A logout in
 * this very tab (which closes its sockets too) says so first, so it never races a second redirect.
 */
let sessionCheckPending = false;
let endingHere = false;
function onSessionEnded() {
  if (endingHere || sessionCheckPending) return;
  sessionCheckPending = true;
  setTimeout(() => {
    sessionCheckPending = false;
    if (!endingHere) void api("/private/core/sessions/ticket", { body: { audience: "socket" } });
  }, 500);
}

/** Called by this tab's logout before it ends the session: its sockets' 4001 is expected, not a reason to redirect. */
export function sessionEndingHere() {
  endingHere = true;
}

export type RoomOptions = {
  /** partyserver party: chat-room, presence or member-inbox. */
  party: "chat-room" | "presence" | "member-inbox";
  /** Room name, tenant first: `SMP~<id>`. */
  room: string;
  onEvent: (event: ServerEvent) => void;
  /** Chat rooms: the last message id seen, sent on every reconnect so the room replays what was missed. */
  lastSeenId?: () => number | null;
  enabled?: boolean;
  /** Wait this long after mount before connecting (app-wide streams skip pages that are left at once). */
  delayMs?: number;
};

/**
 * Browser side of §7 Real time: partysocket reconnects on its own; each attempt fetches a fresh ticket
 * and the last seen id. Each event is checked against its type's schema in the contract before use.
 */
function openRoom(Socket: typeof PartySocket, options: Omit<RoomOptions, "enabled">, onStatus?: (status: SocketStatus) => void) {
  void loadEventParser().catch(() => {});
  const deliver = (parse: EventParser, data: unknown) => {
    const parsed = parse(data);
    if (parsed.success) options.onEvent(parsed.data);
    else console.info("realtime: unexpected event", data);
  };
  const socket: PartySocket = new Socket({
    host: location.host,
    party: options.party,
    room: options.room,
    // The ticket travels in Sec-WebSocket-Protocol, never in the URL (logs, history); a fresh one per attempt.
    protocols: async () => {
      const ticket = await socketTicket();
      // The session ended (also when the close code did not survive a proxy): stop here, and let `api()` decide.
      if (ticket === null) {
        socket.close();
        onSessionEnded();
      }
      return socketProtocols(ticket ?? "");
    },
    query: () => {
      const since = options.lastSeenId?.();
      return since != null && since > 0 ? { since: String(since) } : {};
    },
    maxRetries: Infinity,
    // 4001 (session ended: log in again), 4403 (room closed by a block), 4401: a new attempt would be refused too.
    shouldReconnectOnClose: (event) => !SOCKET_FINAL_CLOSE_CODES.includes(event.code),
  });
  socket.addEventListener("open", () => onStatus?.("open"));
  socket.addEventListener("close", (event) => {
    onStatus?.("closed");
    if (event.code === SOCKET_CLOSE.sessionEnded) onSessionEnded();
  });
  socket.addEventListener("message", (message) => {
    let data: unknown;
    try {
      data = JSON.parse(String(message.data));
    } catch {
      return;
    }
    // A session's end, said in band before its 4001 close (contract `session.ended`): act now, the close may be late.
    if ((data as { type?: unknown } | null)?.type === ("session.ended" satisfies ServerEvent["type"])) {
      socket.close();
      onStatus?.("closed");
      onSessionEnded();
      return;
    }
    // Until the parser has arrived, events wait for it in arrival order (callbacks of one promise run in order,
    // and the one that sets `eventParser` runs first, so no later event can overtake them).
    if (eventParser) deliver(eventParser, data);
    else
      loadEventParser().then(
        (parse) => deliver(parse, data),
        (error) => console.info("realtime: event schema unavailable", error),
      );
  });
  return {
    socket,
    send: (event: ClientEvent) => socket.send(JSON.stringify(event)),
    close: () => socket.close(),
  };
}

/** React hook around `openRoom`; the latest callbacks are used without reconnecting. */
export function useRoom(options: RoomOptions) {
  const [status, setStatus] = useState<SocketStatus>("connecting");
  // A first connection still being retried reads as "connecting": "closed" (the reconnecting notice) is for a
  // connection that was open and dropped, or one that has not opened for FIRST_CONNECT_GRACE_MS.
  const wasOpen = useRef(false);
  const [graceOver, setGraceOver] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const handle = useRef<ReturnType<typeof openRoom> | null>(null);
  const [delayed, setDelayed] = useState(!options.delayMs);
  useEffect(() => {
    if (!options.delayMs) return;
    const timer = setTimeout(() => setDelayed(true), options.delayMs);
    return () => clearTimeout(timer);
  }, [options.delayMs]);
  const enabled = (options.enabled ?? true) && delayed;
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => setGraceOver(true), FIRST_CONNECT_GRACE_MS);
    return () => clearTimeout(timer);
  }, [enabled]);
  useEffect(() => {
    if (!enabled) return;
    let room: ReturnType<typeof openRoom> | null = null;
    let left = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () =>
      partySocket.fetch().then(
        ({ default: Socket }) => {
          if (left) return;
          room = openRoom(
            Socket,
            {
              party: options.party,
              room: options.room,
              onEvent: (event) => latest.current.onEvent(event),
              lastSeenId: () => latest.current.lastSeenId?.() ?? null,
            },
            (next) => {
              if (next === "open") wasOpen.current = true;
              setStatus(next);
            },
          );
          handle.current = room;
        },
        // Offline before partysocket came: try again later, as partysocket itself retries a connection.
        () => {
          if (!left) retry = setTimeout(connect, MODULE_RETRY_MS);
        },
      );
    // In a task of its own: opening a socket (partysocket, the event schemas' preload) in the page's first effects
    // made that task, already the longest after hydration, longer still on every page with a live room.
    const timer = setTimeout(connect, 0);
    return () => {
      left = true;
      clearTimeout(timer);
      clearTimeout(retry);
      handle.current = null;
      if (!room) return;
      // Closing mid-handshake makes the browser log a failed connection: let it open, then close it.
      const ws = (room.socket as unknown as { _ws?: WebSocket })._ws;
      if (ws && ws.readyState === WebSocket.CONNECTING) ws.addEventListener("open", () => room?.close(), { once: true });
      else room.close();
    };
  }, [options.party, options.room, enabled]);
  const send = useCallback((event: ClientEvent) => handle.current?.send(event), []);
  return { status: status === "closed" && !wasOpen.current && !graceOver ? "connecting" : status, send };
}

const FIRST_CONNECT_GRACE_MS = 6000;
const MODULE_RETRY_MS = 5000;

