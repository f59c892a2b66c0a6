import { lateModule } from "../../lib/late-module";

/**
 * Only the registration of this browser's device (device-keys.ts), which the shell runs on every member page once it
 * has settled: no strings and no UI, so it brings none of the conversations' parts (late-e2e.ts) along.
 */
export const e2eDevice = lateModule(() => import("./device-keys"));
