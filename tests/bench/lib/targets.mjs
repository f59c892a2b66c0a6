// The targets, evaluated on one run's results. Each check: { target, figure, pass } (pass null = not measured).
const r2 = (n) => (n == null ? null : Math.round(n * 100) / 100);

export function evaluate(results) {
  const checks = [];
  const add = (group, target, figure, pass) => checks.push({ group, target, figure, pass });
  const api = results.api?.results ?? {};
  const db = api["baseline-db"];
  const bare = api["baseline-bare"];
  for (const [key, e] of Object.entries(api)) {
    if (e.kind === "baseline" || !db) continue;
    // Against the one-query baseline measured around this endpoint (api.mjs), else its first run.
    const ref = e.reference ?? db;
    e.ratioDb = r2(e.rps / ref.rps);
    e.ratioBare = bare ? r2(e.rps / bare.rps) : null;
    e.p99RatioDb = r2(e.p99 / Math.max(1, ref.p99));
    if (e.kind === "login") continue;
    const floor = e.kind === "write" ? 0.4 : 0.6;
    add("api", `${key}: req/s ≥ ${floor * 100}% of one-query baseline`, `${e.rps} req/s = ${Math.round(e.ratioDb * 100)}% of ${ref.rps}`, e.ratioDb >= floor && e.non2xx === 0);
    add("api", `${key}: p99 ≤ 3× one-query baseline p99`, `${e.p99} ms = ${e.p99RatioDb}× of ${ref.p99} ms`, e.p99RatioDb <= 3);
  }
  for (const s of results.api?.skipped ?? []) if (s.key !== "login") add("api", `${s.key}: measured`, s.reason, null);

  const f = results.fanout;
  if (f) {
    for (const n of [100, 500]) {
      const c = f.chat?.[n];
      const b = f.bare?.[n];
      if (c && b) {
        c.p99RatioBare = r2(c.p99 / Math.max(1, b.p99));
        add("fanout", `${n} sockets: p99 ≤ 1.5× bare room`, `${c.p99} ms vs ${b.p99} ms = ${c.p99RatioBare}×`, c.p99RatioBare <= 1.5 && c.lost === 0);
      } else add("fanout", `${n} sockets: p99 ≤ 1.5× bare room`, "not measured", null);
    }
    const k = f.chat?.[1000];
    add("fanout", "1,000 sockets: no loss, no socket dropped", k ? `lost ${k.lost}, dropped ${k.dropped}` : "not measured", k ? k.lost === 0 && k.dropped === 0 && k.duplicates === 0 : null);
    const s = f.chat?.sustained;
    if (s) add("fanout", "sustained to 100 sockets: zero loss", `${s.messagesPerSecond} msg/s, lost ${s.lost}`, s.lost === 0 && s.failedSends === 0);
  }

  for (const c of results.queryCost?.calls ?? []) {
    if (c.limit !== null) add("cost", `${c.key}: rows_read ≤ 3×${c.pageSize}+50 (large tenant)`, `${c.large.rowsRead} rows (small tenant ${c.small.rowsRead})`, c.pass);
    // Not a list: the "cost must not grow with the size of a tenant" (100× more members, at most 1.5× + 50 rows).
    else add("cost", `${c.key}: rows_read does not grow with the tenant`, `${c.large.rowsRead} rows large vs ${c.small.rowsRead} small`, c.large.rowsRead <= c.small.rowsRead * 1.5 + 50);
  }
  for (const p of results.queryCost?.pages ?? []) add("cost", `page ${p.key}: ≤ 3 D1 round trips`, `${p.queries} round trips, ${p.rowsRead} rows`, p.pass);
  // README Decisions "D1 read replicas through sessions": reads never need the primary; a write needs it once.
  const primaryOf = (n) => (n == null ? "not reported" : `${n} to the primary`);
  for (const c of results.queryCost?.calls ?? []) add("replicas", `${c.key}: 0 primary round trips`, primaryOf(c.large.primary), c.large.primary == null ? null : c.large.primary === 0);
  for (const p of results.queryCost?.pages ?? []) add("replicas", `page ${p.key}: 0 primary round trips`, primaryOf(p.primary), p.primary == null ? null : p.primary === 0);
  for (const w of results.queryCost?.writes ?? []) add("replicas", `write ${w.key}: 1 primary round trip`, primaryOf(w.primary), w.primary == null ? null : w.primary <= 1);
  for (const f of results.queryCost?.far ?? []) add("replicas", `page ${f.key}: far member ≤ near member + 20 ms`, `far ${f.farMs} ms vs near ${f.nearMs} ms (+${Math.round((f.farMs - f.nearMs) * 10) / 10})`, f.farMs <= f.nearMs + 20);

  // Against the bare React Router page of the same run (suites/pages.mjs): a slower machine slows both alike.
  const barePage = results.pages?.bare?.lighthouse;
  for (const p of results.pages?.pages ?? []) {
    if (p.key === "home") add("pages", "home: first-load JS ≤ 180 KB gzip", `${p.js.gzipKB} KB`, p.js.gzipKB <= 180);
    add("pages", `${p.key}: HTML ≤ 100 KB`, `${p.htmlKB} KB (loader data ${p.loaderKB} KB)`, p.htmlKB <= 100);
    if (p.lighthouse) {
      const lh = p.lighthouse;
      const shown = (v) => (v == null ? `no score (${lh.runtimeError ?? "unknown"})` : String(v));
      const known = lh.performance != null && barePage?.performance != null;
      add("pages", `${p.key}: Lighthouse mobile performance ≥ bare page − 5`, `${shown(lh.performance)} vs bare ${barePage?.performance ?? "not measured"}`, known ? lh.performance >= barePage.performance - 5 : null);
      const tbtKnown = lh.tbtMs != null && barePage?.tbtMs != null;
      add("pages", `${p.key}: total blocking time ≤ bare page + 100 ms`, `${lh.tbtMs ?? "?"} ms vs bare ${barePage?.tbtMs ?? "not measured"} ms`, tbtKnown ? lh.tbtMs <= barePage.tbtMs + 100 : null);
      add("pages", `${p.key}: Lighthouse accessibility ≥ 95`, shown(lh.accessibility), lh.accessibility == null ? null : lh.accessibility >= 95);
    }
  }
  for (const s of results.pages?.skipped ?? []) add("pages", `${s.key}: measured`, s.reason, null);

  if (results.bundle) add("bundle", "worker bundle ≤ 1 MB gzip", `${results.bundle.gzipKB} KB`, results.bundle.gzipKB <= 1024);
  return checks;
}
