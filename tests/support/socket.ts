import { socketProtocols } from "../../worker/contract/session.constants";
import { fetchWorker, call, expectOk, type Member } from "./client";

/** The upgrade headers a browser sends: the ticket in Sec-WebSocket-Protocol, never in the URL. */
export const socketHeaders = (ticket: string) => ({ Upgrade: "websocket", "Sec-WebSocket-Protocol": socketProtocols(ticket).join(", ") });

export type TestSocket = { socket: WebSocket; events: any[]; next: (predicate?: (e: any) => boolean, timeoutMs?: number) => Promise<any>; close: () => void };

/**
 * Opens a real WebSocket to `/parties/<party>/<name>` with a fresh socket ticket. `query` (e.g. `&since=5`) is
 * appended after `?`.
 */
export async function openSocket(member: Member | null, party: string, name: string, query = ""): Promise<TestSocket | Response> {
  let ticket = "";
  if (member) ticket = expectOk(await call("POST", "/private/core/sessions/ticket", { as: member, body: { audience: "socket" } })).ticket;
  const response = await fetchWorker(`/parties/${party}/${encodeURIComponent(name)}?${query.replace(/^&/, "")}`, { headers: socketHeaders(ticket) });
  if (response.status !== 101 || !response.webSocket) return response;
  const socket = response.webSocket;
  socket.accept();
  const events: any[] = [];
  const waiters: { predicate: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  let cursor = 0;
  socket.addEventListener("message", (message) => {
    const event = JSON.parse(String(message.data));
    events.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  });
  /** Resolves with the first event (seen or future, after the last one consumed) matching the predicate. */
  const next = (predicate: (e: any) => boolean = () => true, timeoutMs = 5000) =>
    new Promise<any>((resolve, reject) => {
      for (let i = cursor; i < events.length; i++) {
        if (predicate(events[i])) {
          cursor = i + 1;
          return resolve(events[i]);
        }
      }
      const timer = setTimeout(() => reject(new Error(`no matching event; saw ${JSON.stringify(events)}`)), timeoutMs);
      waiters.push({
        predicate,
        resolve: (e) => {
          clearTimeout(timer);
          cursor = events.indexOf(e) + 1;
          resolve(e);
        },
      });
    });
  return { socket, events, next, close: () => socket.close() };
}
