// Loaded by app/root.tsx before any module script: zod reads this config when it first loads and then never
// probes `new Function` — our CSP has no 'unsafe-eval', so the probe would be reported as a violation.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
