import { z } from "zod";

/**
 * Zod's JIT probes `new Function("")` on first parse. Our page CSP has no 'unsafe-eval', so in the browser that
 * probe is reported as a script-src violation (tests/e2e/security.e2e.ts) even though zod swallows the throw.
 * Workers never allow eval either; zod parses without the JIT everywhere. Imported first by app/root.tsx.
 */
z.config({ jitless: true });
