// Markdown report + SVG chart of one run (tests/bench/results/report.md, chart.svg).

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const mark = (pass) => (pass === true ? "✅" : pass === false ? "❌" : "—");

/** Horizontal bars: requests/s of each endpoint as % of the one-query baseline, target lines at 40 % and 60 %. */
export function chartSvg(results) {
  const api = results.api?.results ?? {};
  const db = api["baseline-db"];
  if (!db) return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="40"><text x="10" y="25" font-family="sans-serif" font-size="14">No API figures in this run</text></svg>`;
  const rows = Object.entries(api).map(([key, e]) => ({ key, label: key, pct: (e.rps / (e.reference ?? db).rps) * 100, rps: e.rps, kind: e.kind }));
  const fan = results.fanout;
  for (const n of [100, 500, 1000]) {
    if (fan?.chat?.[n] && fan?.bare?.[n]) rows.push({ key: `fan${n}`, label: `fan-out p99 ${n}: bare/chat`, pct: (fan.bare[n].p99 / Math.max(1, fan.chat[n].p99)) * 100, rps: `${fan.chat[n].p99} ms`, kind: "fanout" });
  }
  const max = Math.max(200, ...rows.map((r) => r.pct));
  const left = 250;
  const width = 420;
  const rowH = 26;
  const h = 50 + rows.length * rowH + 44;
  const x = (pct) => left + (pct / max) * width;
  const colors = { baseline: "#8a8f98", read: "#3b82f6", write: "#a855f7", login: "#f59e0b", fanout: "#10b981" };
  const bars = rows.map((r, i) => {
    const y = 40 + i * rowH;
    return `<text x="${left - 8}" y="${y + 15}" text-anchor="end">${esc(r.label)}</text>
<rect x="${left}" y="${y + 3}" width="${Math.max(1, x(r.pct) - left).toFixed(1)}" height="16" fill="${colors[r.kind] ?? "#666"}"/>
<text x="${(x(r.pct) + 6).toFixed(1)}" y="${y + 15}">${Math.round(r.pct)}% (${esc(r.rps)}${typeof r.rps === "number" ? " req/s" : ""})</text>`;
  }).join("\n");
  const line = (pct, label, dy = 0) => `<line x1="${x(pct).toFixed(1)}" y1="34" x2="${x(pct).toFixed(1)}" y2="${h - 30 + dy}" stroke="#ef4444" stroke-dasharray="4 3"/><text x="${x(pct).toFixed(1)}" y="${h - 16 + dy}" text-anchor="middle" fill="#ef4444">${label}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 170}" height="${h}" font-family="sans-serif" font-size="12" role="img" aria-label="Throughput relative to the one-query baseline">
<title>Requests/s as % of the one-query D1 baseline (fan-out rows: bare-room p99 / chat p99)</title>
<text x="10" y="20" font-size="14" font-weight="bold">Requests/s as % of the one-query baseline around each endpoint; fan-out: bare p99 ÷ chat p99</text>
${line(40, "40% write")}${line(60, "60% read", 14)}${line(100, "baseline")}
${bars}
</svg>`;
}

export function reportMd(results, checks) {
  const L = [];
  const m = results.meta;
  L.push(`# Velvet benchmark report`, "");
  L.push(`Run ${m.startedAt} · commit ${m.commit} · ${m.seconds} s · ${m.machine} · wrangler ${m.wrangler} · large tenant ${m.tenants.large.code} (${m.tenants.large.members} members, ${m.tenants.large.messages} chat messages, ${m.tenants.large.photos} photos) · small tenant ${m.tenants.small.code} (${m.tenants.small.members} members)`, "");
  const failed = checks.filter((c) => c.pass === false).length;
  const passed = checks.filter((c) => c.pass === true).length;
  const unmeasured = checks.filter((c) => c.pass === null).length;
  L.push(`**${passed} targets met, ${failed} missed, ${unmeasured} not measured.** Figures are ratios against two baselines measured in the same run: a bare route (\`GET /health\`) and a one-query D1 route (\`GET /health/db\`). The one-query baseline runs again after each endpoint, and each endpoint is set against the mean of the runs just before and after it (capacity on the shared machine drifts during a run).`, "");
  L.push(`![chart](chart.svg)`, "");
  const api = results.api?.results ?? {};
  if (Object.keys(api).length) {
    L.push(`## API (${results.api.duration} s per endpoint, 50 connections; login 10)`, "", "| endpoint | req/s | one-query baseline around it (req/s) | × one-query | × bare | p50 ms | p99 ms | p99 × one-query | non-2xx |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const [key, e] of Object.entries(api)) {
      const around = e.reference ? `${e.reference.runs.join(" / ")}` : key === "baseline-db" && e.runs ? `all runs: ${e.runs.map((r) => r.rps).join(", ")}` : "";
      L.push(`| ${key} — ${e.name} | ${e.rps} | ${around} | ${e.ratioDb ?? (key === "baseline-db" ? 1 : "")} | ${e.ratioBare ?? ""} | ${e.p50} | ${e.p99} | ${e.p99RatioDb ?? ""} | ${e.non2xx} |`);
    }
    L.push("");
  }
  if (results.fanout) {
    L.push(`## Fan-out (time from the HTTP call accepting a message to each socket receiving it)`, "", "| room | sockets | messages | p50 ms | p99 ms | max ms | lost | duplicates | out of order | dropped |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const side of ["bare", "chat"]) {
      for (const n of [100, 500, 1000]) {
        const r = results.fanout[side]?.[n];
        if (r) L.push(`| ${side} | ${n} | ${r.messages} | ${r.p50} | ${r.p99} | ${r.max} | ${r.lost} | ${r.duplicates} | ${r.outOfOrder} | ${r.dropped} |`);
      }
    }
    L.push("", "| room | sustained msg/s to 100 sockets | lost | failed sends |", "|---|---:|---:|---:|");
    for (const side of ["bare", "chat"]) {
      const s = results.fanout[side]?.sustained;
      if (s) L.push(`| ${side} | ${s.messagesPerSecond} | ${s.lost} | ${s.failedSends} |`);
    }
    L.push("");
  }
  if (results.queryCost) {
    L.push(`## Query cost (D1 round trips / rows_read per call)`, "", "| call | pageSize | large: queries | large: rows_read | small: queries | small: rows_read | limit |", "|---|---:|---:|---:|---:|---:|---:|");
    for (const c of results.queryCost.calls) L.push(`| ${c.key} | ${c.pageSize ?? ""} | ${c.large.queries} | ${c.large.rowsRead} | ${c.small.queries} | ${c.small.rowsRead} | ${c.limit ?? ""} |`);
    L.push("", "| page (large tenant) | D1 round trips | to the primary | rows_read |", "|---|---:|---:|---:|");
    for (const p of results.queryCost.pages) L.push(`| ${p.key} \`${p.path}\` | ${p.queries} | ${p.primary ?? ""} | ${p.rowsRead} |`);
    if (results.queryCost.writes?.length) {
      L.push("", "| write | D1 round trips | to the primary |", "|---|---:|---:|");
      for (const w of results.queryCost.writes) L.push(`| ${w.key} | ${w.queries} | ${w.primary ?? ""} |`);
    }
    if (results.queryCost.far?.length) {
      const f0 = results.queryCost.far[0].delays;
      L.push("", `### Far-member simulation (server time p50; replica ${f0.far.replica} ms, primary ${f0.near.primary} ms near / ${f0.far.primary} ms far per round trip)`, "", "| page | near ms | far ms | far − near |", "|---|---:|---:|---:|");
      for (const f of results.queryCost.far) L.push(`| ${f.key} | ${f.nearMs} | ${f.farMs} | ${Math.round((f.farMs - f.nearMs) * 10) / 10} |`);
    }
    L.push("");
  }
  if (results.pages?.pages?.length) {
    // Lighthouse figures are the median of each page's audits (suites/pages.mjs); the last column shows every audit.
    L.push(`## Pages (large tenant)`, "", "| page | first-load JS gzip KB | files | HTML KB | loader data KB | render p50 ms | render p90 ms | LH performance | LH accessibility | FCP ms | LCP ms | TBT ms | each audit: perf / TBT ms |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    const each = (lh) => (lh?.audits ?? []).map((a) => `${a.performance ?? "?"} / ${a.tbtMs ?? "?"}`).join(", ");
    const row = (p, key = p.key) => L.push(`| ${key} | ${p.js.gzipKB} | ${p.js.files} | ${p.htmlKB} | ${p.loaderKB ?? ""} | ${p.render?.p50 ?? ""} | ${p.render?.p90 ?? ""} | ${p.lighthouse?.performance ?? ""} | ${p.lighthouse?.accessibility ?? ""} | ${p.lighthouse?.fcpMs ?? ""} | ${p.lighthouse?.lcpMs ?? ""} | ${p.lighthouse?.tbtMs ?? ""} | ${each(p.lighthouse)} |`);
    // The bare React Router page: each of its runs (before and after the app's pages), then their mean, the baseline.
    const bare = results.pages.bare;
    for (const [i, r] of (bare?.runs ?? []).entries()) row(r, `bare page, run ${i + 1}`);
    if (bare?.lighthouse) L.push(`| **bare page (mean)** | ${bare.js.gzipKB} | ${bare.js.files} | ${bare.htmlKB} | ${bare.loaderKB} | | | ${bare.lighthouse.performance ?? ""} | | | ${bare.lighthouse.lcpMs ?? ""} | ${bare.lighthouse.tbtMs ?? ""} | |`);
    for (const p of results.pages.pages) row(p);
    L.push("");
  }
  if (results.bundle) L.push(`## Worker bundle`, "", `\`wrangler deploy --dry-run\`: ${results.bundle.files} files, ${results.bundle.rawKB} KB raw, **${results.bundle.gzipKB} KB gzip**.`, "");
  L.push(`## Targets`, "", "| | group | target | figure |", "|---|---|---|---|");
  for (const c of checks) L.push(`| ${mark(c.pass)} | ${c.group} | ${esc(c.target)} | ${esc(c.figure)} |`);
  const skipped = results.skipped ?? [];
  if (skipped.length) {
    L.push("", "## Skipped (not mounted yet or refused the bench's call)", "");
    for (const s of skipped) L.push(`- ${s.key}: ${s.reason}`);
  }
  L.push("");
  return L.join("\n");
}
