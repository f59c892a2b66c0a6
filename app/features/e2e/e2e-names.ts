/**
 * Names the end-to-end code shares with the parts of a conversation that render before that code has arrived
 * (late-e2e.ts): a tab flag, a window event and a storage key. Kept apart so those parts import no crypto.
 */

/** Set for this tab when the server no longer listed this device and it registered again (the conversation says so). */
export const REREGISTERED_FLAG = "e2eDeviceReregistered";

/** Fired on window with `detail: peerNo` when a message shows the contact's keys changed (key-watch.ts). */
export const KEYS_EVENT = "velvet:e2e-keys";

/** Where this browser keeps the safety number the member marked as verified (never sent to the server). */
export const verifiedKey = (memberId: string, peerNo: string) => `e2eVerified:${memberId}:${peerNo}`;
