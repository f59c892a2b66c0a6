import { lateModule } from "../../lib/late-module";

/**
 * The end-to-end code (e2e-code.ts), fetched when a conversation first needs it rather than with the page: the
 * public chat and the photo pages render every message before any is decrypted, and most members there never send a
 * private reply (README Decisions "End-to-end code comes after the first paint").
 */
export const e2eCode = lateModule(() => import("./e2e-code"));
