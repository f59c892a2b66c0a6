// Pages: first-load JavaScript (gzip) per route, server render time, Lighthouse mobile performance and accessibility
// (the `lighthouse` package driving the system Chromium, default mobile emulation and simulated throttling).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { log, percentile, round } from "../lib/util.mjs";
import { pageRoutes, sessionCookie } from "./query-cost.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Scripts a first visit downloads: module scripts and modulepreloads of the HTML, plus their static imports. */
async function firstLoadJs(base, html) {
  const seen = new Set();
  const queue = [];
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g)) queue.push(new URL(m[1], base).href);
  for (const m of html.matchAll(/import\(?\s*"([^"]+\.js)"/g)) queue.push(new URL(m[1], base).href);
  let raw = 0;
  let gzip = 0;
  while (queue.length) {
    const url = queue.shift();
    if (seen.has(url) || !url.startsWith(base)) continue;
    seen.add(url);
    const res = await fetch(url);
    if (res.status !== 200) continue;
    const body = Buffer.from(await res.arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 6 }).length;
    // Static imports between chunks (`from"./x.js"` / `import"./x.js"`) load with the page too.
    for (const m of body.toString("utf8").matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) queue.push(new URL(m[1], url).href);
  }
  return { files: seen.size, rawKB: round(raw / 1024), gzipKB: round(gzip / 1024) };
}

async function renderTimes(base, path, headers, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(base + path, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50)), p90: round(percentile(times, 90)) };
}

/** Bytes of the loader data inlined in the HTML (React Router's turbo-stream chunks, `streamController.enqueue(...)`). */
function loaderDataBytes(html) {
  let bytes = 0;
  for (const m of html.matchAll(/<script[^>]*>([^<]*streamController\.enqueue[^<]*)<\/script>/g)) bytes += Buffer.byteLength(m[1]);
  return bytes;
}

/**
 * Empties the browser's cookie jar (CDP Storage.clearCookies on the browser target). Once the jar holds any cookie
 * for 127.0.0.1 (a page's D1 bookmark cookie after a write, README Decisions "D1 read replicas through sessions"),
 * Chromium sends the jar's cookies in place of Lighthouse's `extraHeaders` Cookie: every later page was audited without
 * its session (the public chat was measured as the login page it redirected to). Each audit starts with an empty jar.
 */
async function clearCookies(port) {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  await new Promise((resolve) => {
    ws.onmessage = resolve;
    ws.send(JSON.stringify({ id: 1, method: "Storage.clearCookies" }));
  });
  ws.close();
}

/**
 * Lighthouse audits per page (BENCH_LH_RUNS, default 3): one audit of one build swings by hundreds of ms of blocking
 * time (tests/bench/README.md), so each figure is the median of the audits, as Lighthouse's own guidance on
 * variability recommends; every audit's figures stay in the results.
 */
const LIGHTHOUSE_AUDITS = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 3));

async function auditOnce(port, origin, page, code) {
  const audit = () => lighthouse(origin + page.path, {
    port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"],
    extraHeaders: page.cookie ? { Cookie: sessionCookie(code) } : undefined,
  });
  await clearCookies(port);
  let lhr = (await audit()).lhr;
  // A trace Lighthouse could not read (e.g. NO_NAVSTART) is retried once before it is reported.
  if (lhr.runtimeError) {
    await clearCookies(port);
    lhr = (await audit()).lhr;
  }
  // BENCH_LH_OUT=<dir> keeps each audit's full report (diagnostics: main-thread work, bootup time, LCP element).
  if (process.env.BENCH_LH_OUT) {
    mkdirSync(process.env.BENCH_LH_OUT, { recursive: true });
    writeFileSync(`${process.env.BENCH_LH_OUT}/${page.key.replaceAll(" ", "-")}-${Date.now()}.json`, JSON.stringify(lhr));
  }
  // A score of null means Lighthouse could not compute it (runtimeError says why): reported, not counted as 0.
  const score = (category) => (lhr.categories[category]?.score == null ? null : Math.round(lhr.categories[category].score * 100));
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    runtimeError: lhr.runtimeError?.code ?? null,
    // The page Lighthouse ended on: a private page that lost its session shows the login page's figures.
    finalPath: lhr.finalDisplayedUrl ? new URL(lhr.finalDisplayedUrl).pathname : null,
    fcpMs: round(lhr.audits["first-contentful-paint"]?.numericValue, 0),
    lcpMs: round(lhr.audits["largest-contentful-paint"]?.numericValue, 0),
    tbtMs: round(lhr.audits["total-blocking-time"]?.numericValue, 0),
    cls: round(lhr.audits["cumulative-layout-shift"]?.numericValue, 3),
    failedA11y: Object.values(lhr.audits).filter((a) => a.score === 0 && lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id)).map((a) => a.id),
  };
}

/** Each figure's median over the audits (a figure an audit could not compute is left out); accessibility's worst. */
function medianAudit(audits) {
  const median = (pick, digits = 0) => {
    const values = audits.map(pick).filter((v) => v != null).sort((a, b) => a - b);
    return values.length ? round(percentile(values, 50), digits) : null;
  };
  const a11y = audits.map((a) => a.accessibility).filter((v) => v != null);
  return {
    performance: median((a) => a.performance),
    accessibility: a11y.length ? Math.min(...a11y) : null,
    runtimeError: audits.find((a) => a.runtimeError)?.runtimeError ?? null,
    finalPath: audits.find((a) => a.finalPath)?.finalPath ?? null,
    fcpMs: median((a) => a.fcpMs),
    lcpMs: median((a) => a.lcpMs),
    tbtMs: median((a) => a.tbtMs),
    cls: median((a) => a.cls, 3),
    failedA11y: [...new Set(audits.flatMap((a) => a.failedA11y))],
    audits,
  };
}

/**
 * The bare React Router page (tests/bench/bare-page: the app's build setup, no app code) is measured before and
 * after the app's pages with the same Lighthouse settings; the pages' targets are taken against the mean of the
 * two (the machine's speed drifts during a run, as the API suite found for its baseline).
 */
export async function runPagesSuite({ base, bareBase, code, lighthouseRuns = true, renderRuns = 20 }) {
  // chrome-launcher reports a missing binary as an unhandled 'error' event, which ends the bench without stopping
  // its servers: say what is missing instead.
  if (lighthouseRuns && !existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (as .ci/run does) or set CHROMIUM_PATH`);
  const pages = [];
  const skipped = [];
  const bareRuns = [];
  let chrome = null;
  const measure = async (origin, page) => {
    const headers = page.cookie ? { Cookie: sessionCookie(code) } : {};
    const res = await fetch(origin + page.path, { headers, redirect: "manual" });
    const html = await res.text();
    if (res.status !== 200) {
      skipped.push({ key: page.key, reason: `HTTP ${res.status}` });
      log(`pages: skip ${page.key} (HTTP ${res.status})`);
      return null;
    }
    const entry = {
      key: page.key, path: page.path, htmlKB: round(Buffer.byteLength(html) / 1024), loaderKB: round(loaderDataBytes(html) / 1024),
      js: await firstLoadJs(origin, html), render: await renderTimes(origin, page.path, headers, renderRuns),
    };
    if (lighthouseRuns) {
      chrome ??= await chromeLauncher.launch({
        chromePath: CHROMIUM,
        chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
      });
      const t0 = Date.now();
      const audits = [];
      for (let i = 0; i < LIGHTHOUSE_AUDITS; i++) audits.push(await auditOnce(chrome.port, origin, page, code));
      entry.lighthouse = { ...medianAudit(audits), seconds: round((Date.now() - t0) / 1000) };
    }
    log(`pages: ${page.key} HTML ${entry.htmlKB} KB (loader data ${entry.loaderKB} KB), JS ${entry.js.gzipKB} KB gzip, render p50 ${entry.render.p50} ms${entry.lighthouse ? `, LH perf ${entry.lighthouse.performance} TBT ${entry.lighthouse.tbtMs} ms a11y ${entry.lighthouse.accessibility}${entry.lighthouse.finalPath && entry.lighthouse.finalPath !== page.path ? ` (ENDED ON ${entry.lighthouse.finalPath})` : ""}` : ""}`);
    return entry;
  };
  const bare = { key: "bare page", path: "/" };
  try {
    if (bareBase) bareRuns.push(await measure(bareBase, bare));
    for (const page of pageRoutes(code)) {
      const entry = await measure(base, page);
      if (entry) pages.push(entry);
    }
    if (bareBase) bareRuns.push(await measure(bareBase, bare));
  } finally {
    if (chrome) await chrome.kill();
  }
  return { pages, bare: baselineOf(bareRuns.filter(Boolean)), skipped };
}

/** The bare page's figures: the mean of its runs (each run kept for the report). */
function baselineOf(runs) {
  if (!runs.length) return null;
  const mean = (pick) => {
    const values = runs.map(pick).filter((v) => v != null);
    return values.length ? round(values.reduce((a, b) => a + b, 0) / values.length, 0) : null;
  };
  const lighthouse = runs.some((r) => r.lighthouse) ? { performance: mean((r) => r.lighthouse?.performance), tbtMs: mean((r) => r.lighthouse?.tbtMs), lcpMs: mean((r) => r.lighthouse?.lcpMs) } : null;
  return { key: "bare page", htmlKB: runs[0].htmlKB, loaderKB: runs[0].loaderKB, js: runs[0].js, lighthouse, runs };
}
