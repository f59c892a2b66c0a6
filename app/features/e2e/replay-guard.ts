/**
 * Signed payload v2 (SECURITY.md "End-to-end encrypted private messages"): each message carries a random id its
 * sender signed. Within a room one id belongs to one stored message, the earliest (lowest server id) this browser
 * has seen; any other stored message with the same id is a replay. Verified claims are remembered per member and
 * room (bounded), so a replay is caught on a later visit too.
 */
const MAX_PER_ROOM = 1000;
const claims = new Map<string, Map<string, number>>();
const storageKey = (memberId: string, room: string) => `e2eMsgIds:${memberId}:${room}`;

function roomClaims(memberId: string, room: string) {
  const key = storageKey(memberId, room);
  let map = claims.get(key);
  if (!map) {
    map = new Map();
    try {
      for (const [id, serverId] of Object.entries(JSON.parse(localStorage.getItem(key) ?? "{}") as Record<string, number>)) map.set(id, serverId);
    } catch {
      // A damaged record is started over; it only ever adds checks.
    }
    claims.set(key, map);
  }
  return map;
}

/** Registers that stored message `serverId` carries `msgId` (called before verifying, so one page's batch is complete). */
export function claimMessageId(memberId: string, room: string, msgId: string, serverId: number) {
  const map = roomClaims(memberId, room);
  const owner = map.get(msgId);
  if (owner === undefined || serverId < owner) map.set(msgId, serverId);
}

/** True when another stored message in the room owns `msgId` (this one is a replay). */
export function isReplay(memberId: string, room: string, msgId: string, serverId: number) {
  return roomClaims(memberId, room).get(msgId) !== serverId;
}

/** Keeps a verified claim across visits (the oldest are dropped past the bound). */
export function persistClaim(memberId: string, room: string) {
  const entries = [...roomClaims(memberId, room).entries()].sort((a, b) => b[1] - a[1]).slice(0, MAX_PER_ROOM);
  try {
    localStorage.setItem(storageKey(memberId, room), JSON.stringify(Object.fromEntries(entries)));
  } catch {
    // Storage full: the in-memory check still holds for this page.
  }
}
