/**
 * Room names carry their tenant first: `SMP~<room id>`. Shared by the features that reach a room (publish, presence,
 * ending sockets) and the rooms that check the tenant, so neither imports the other for a name.
 */
export const ROOM_NAME_SEPARATOR = "~";
export const roomName = (projectCode: string, id: string) => `${projectCode}${ROOM_NAME_SEPARATOR}${id}`;
export const roomTenant = (name: string) => name.split(ROOM_NAME_SEPARATOR)[0] ?? "";
