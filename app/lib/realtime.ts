import PartySocket from "partysocket";
import { useCallback, useEffect, useRef, useState } from "react";
import { ServerEvent, type ClientEvent } from "../../worker/contract/realtime";
import { api } from "./api";

export type SocketStatus = "connecting" | "open" | "closed";

/** A short-lived socket ticket (60 s) for every (re)connect: the session itself never travels in a URL. */
async function socketTicket(): Promise<string> {
  const body = await api<{ ticket: string }>("/private/core/sessions/ticket", { body: { audience: "socket" } });
  return "info" in body ? body.info.ticket : "";
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
};

/**
 * Browser side of §7 Real time: partysocket reconnects on its own; each attempt fetches a fresh ticket
 * and the last seen id. Events are checked against the contract's zod union before use.
 */
export function openRoom(options: Omit<RoomOptions, "enabled">, onStatus?: (status: SocketStatus) => void) {
  const socket = new PartySocket({
    host: location.host,
    party: options.party,
    room: options.room,
    query: async () => {
      const ticket = await socketTicket();
      const since = options.lastSeenId?.();
      return since != null && since > 0 ? { ticket, since: String(since) } : { ticket };
    },
    maxRetries: Infinity,
  });
  socket.addEventListener("open", () => onStatus?.("open"));
  socket.addEventListener("close", () => onStatus?.("closed"));
  socket.addEventListener("message", (message) => {
    let data: unknown;
    try {
      data = JSON.parse(String(message.data));
    } catch {
      return;
    }
    const parsed = ServerEvent.safeParse(data);
    if (parsed.success) options.onEvent(parsed.data);
    else console.info("realtime: unexpected event", data);
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
  const latest = useRef(options);
  latest.current = options;
  const handle = useRef<ReturnType<typeof openRoom> | null>(null);
  const enabled = options.enabled ?? true;
  useEffect(() => {
    if (!enabled) return;
    const room = openRoom(
      {
        party: options.party,
        room: options.room,
        onEvent: (event) => latest.current.onEvent(event),
        lastSeenId: () => latest.current.lastSeenId?.() ?? null,
      },
      setStatus,
    );
    handle.current = room;
    return () => {
      handle.current = null;
      room.close();
    };
  }, [options.party, options.room, enabled]);
  const send = useCallback((event: ClientEvent) => handle.current?.send(event), []);
  return { status, send };
}
