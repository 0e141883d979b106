/**
 * Lighthouse on every public page (issue 12: "Lighthouse ≥ 95 on every public page"), for one or
 * several running webs side by side: the four category scores (performance, accessibility, best
 * practices, SEO), FCP, LCP, TBT, CLS and Speed Index, what the page loads (requests, transfer kB,
 * of which scripts, fonts and CSS), requests to another origin than the page's and console errors;
 * then, per page and web, what to fix: the failing audits (score < 1) of accessibility, best
 * practices and SEO, and the performance diagnostics with the largest estimated savings.
 *
 * Lighthouse's default config: a mobile form factor with its simulated throttling (the figures
 * PageSpeed Insights shows); `--desktop` for its desktop preset; `--applied` for throttling applied
 * in the browser (`throttlingMethod: 'devtools'`: the same mobile network and CPU, really slowed):
 * on loopback the simulated LCP flips between ~1.2 and ~2.4 s by whether the picture or the
 * framework's script happened to run first in the unthrottled load, the applied one holds to
 * ±50 ms (docs/performance.md, issue 12 fourth round). Lighthouse 12 from npm (13 needs
 * Node ≥ 22.19; this machine runs Node 20), in Debian Chromium launched by chrome-launcher (a
 * fresh browser, profile and cache per run): CHROME_PATH, default /usr/bin/chromium.
 *
 * Before and after in the same run: give each web a label (`--url before=http://127.0.0.1:3300
 * --url after=http://127.0.0.1:3000`). This machine is shared and noisy, so runs are interleaved
 * page by page, the labels' order rotating per round and page, and `--runs N` reports medians.
 * Every page is fetched once per web before the first run (server-rendered pages warm, ISR pages
 * built). The load averages at start and end tell how busy the machine was.
 *
 * Usage: npx tsx bench/lighthouse.ts [--url label=baseUrl]… [--runs 1] [--pages home,search,…]
 *        [--desktop] [--applied] [--json out.json]
 * Pages: home (/), title (/title/amayadori-cafe), search, brand, magazine, article (the first
 * article the magazine lists), upgrade; `--pages` takes these names or the paths.
 * Needs a running web (`npm start`) and its api; loopback addresses only.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { checkTargets, parseTarget, rotation, type Target } from './web-targets';
import type { Config, Flags, Result } from 'lighthouse';

// ── arguments ─────────────────────────────────────────────────────────────────────────────


function usage(message: string): never {
  console.error(message);
  console.error('usage: npx tsx bench/lighthouse.ts [--url label=baseUrl]… [--runs N] [--pages home,title,search,brand,magazine,article,upgrade] [--desktop] [--applied] [--json out.json]');
  process.exit(1);
}

function parseArgs(argv: string[]) {
  const targets: Target[] = [];
  let runs = 1;
  let pages: string[] | null = null;
  let desktop = false;
  let applied = false;
  let json: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => argv[++i] ?? usage(`${a} needs a value`);
    if (a === '--url') targets.push(parseTarget(value(), targets.length + 1));
    else if (a === '--runs') runs = Math.max(1, Number(value()) || 1);
    else if (a === '--pages') pages = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--desktop') desktop = true;
    else if (a === '--applied') applied = true;
    else if (a === '--json') json = value();
    else usage(`unknown argument ${a}`);
  }
  if (!targets.length) targets.push({ label: 'after', base: 'http://127.0.0.1:3000' });
  checkTargets(targets, usage);
  return { targets, runs, pages, desktop, applied, json };
}

// ── pages ─────────────────────────────────────────────────────────────────────────────────

interface Page {
  name: string;
  path: string;
}

const FIXED_PAGES: Page[] = [
  { name: 'home', path: '/' },
  { name: 'title', path: '/title/amayadori-cafe' },
  { name: 'search', path: '/search' },
  { name: 'brand', path: '/brand' },
  { name: 'magazine', path: '/magazine' },
  { name: 'article', path: '/magazine/[slug]' },
  { name: 'upgrade', path: '/upgrade' },
];

/** The first article the magazine lists (its HTML), else the first file of content/magazine. */
async function firstArticle(base: string): Promise<string> {
  try {
    const html = await (await fetch(`${base}/magazine`)).text();
    const m = /href="\/magazine\/([^"/?#]+)"/.exec(html);
    if (m) return `/magazine/${m[1]}`;
  } catch {
    // fall back to the repository's content below
  }
  const dir = path.join(__dirname, '..', 'content', 'magazine');
  const file = fs.readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md').sort()[0];
  if (!file) throw new Error('no magazine article found');
  console.log(`  (the magazine's HTML lists no article: taking ${file} from content/magazine)`);
  return `/magazine/${file.replace(/\.md$/, '')}`;
}

// ── one Lighthouse run, summarised ────────────────────────────────────────────────────────

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = { fcp: 'first-contentful-paint', lcp: 'largest-contentful-paint', tbt: 'total-blocking-time', cls: 'cumulative-layout-shift', si: 'speed-index' } as const;
type MetricKey = keyof typeof METRICS;
type Numbers = Record<'perf' | 'a11y' | 'bp' | 'seo' | MetricKey | 'requests' | 'kb' | 'jsKb' | 'fontKb' | 'cssKb' | 'otherOrigin' | 'consoleErrors' | 'benchmarkIndex', number>;

interface Opportunity {
  id: string;
  /** Estimated savings in ms on LCP, FCP and TBT, and bytes, per Lighthouse. */
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  kb: number;
  displayValue: string;
}

interface RunSummary {
  page: string;
  label: string;
  url: string;
  round: number;
  error?: string;
  numbers?: Numbers;
  /** Failing audits (score < 1) by category, with the number of items each flags. */
  failing?: Record<'accessibility' | 'best-practices' | 'seo', { id: string; items: number }[]>;
  opportunities?: Opportunity[];
  otherOriginUrls?: string[];
  consoleErrors?: string[];
  lcpElement?: string;
}

interface NetworkItem {
  url: string;
  transferSize?: number;
  resourceType?: string;
  mimeType?: string;
}

interface LooseDetails {
  type?: string;
  items?: unknown[];
  overallSavingsBytes?: number;
  overallSavingsMs?: number;
}

const detailsOf = (lhr: Result, id: string): LooseDetails => (lhr.audits[id]?.details ?? {}) as unknown as LooseDetails;

function summarise(lhr: Result, page: string, label: string, url: string, round: number): RunSummary {
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? NaN) * 100);
  const metric = (k: MetricKey) => lhr.audits[METRICS[k]]?.numericValue ?? NaN;

  const origin = new URL(lhr.finalDisplayedUrl || url).origin;
  const requests = (detailsOf(lhr, 'network-requests').items ?? []) as NetworkItem[];
  const kb = (items: NetworkItem[]) => items.reduce((a, r) => a + (r.transferSize ?? 0), 0) / 1024;
  const ofType = (t: string) => requests.filter((r) => r.resourceType === t);
  const originOf = (u: string) => {
    try {
      return new URL(u).origin;
    } catch {
      return origin;
    }
  };
  const other = requests.filter((r) => !r.url.startsWith('data:') && !r.url.startsWith('blob:') && originOf(r.url) !== origin);

  const consoleItems = (detailsOf(lhr, 'errors-in-console').items ?? []) as { source?: string; description?: string; url?: string }[];

  const failing = { accessibility: [], 'best-practices': [], seo: [] } as NonNullable<RunSummary['failing']>;
  for (const c of ['accessibility', 'best-practices', 'seo'] as const) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= 1) continue;
      if (['notApplicable', 'manual', 'informative'].includes(a.scoreDisplayMode)) continue;
      failing[c].push({ id: ref.id, items: (detailsOf(lhr, ref.id).items ?? []).length });
    }
  }

  // Performance diagnostics that miss, by their estimated savings (Lighthouse 12's metricSavings).
  const opportunities: Opportunity[] = [];
  for (const ref of lhr.categories.performance?.auditRefs ?? []) {
    if (ref.group !== 'diagnostics') continue;
    const a = lhr.audits[ref.id];
    if (!a || a.score === null || a.score >= 1 || a.scoreDisplayMode === 'notApplicable') continue;
    const s = a.metricSavings ?? {};
    const d = detailsOf(lhr, ref.id);
    opportunities.push({
      id: ref.id,
      lcp: s.LCP ?? 0,
      fcp: s.FCP ?? 0,
      tbt: s.TBT ?? 0,
      cls: s.CLS ?? 0,
      kb: (d.overallSavingsBytes ?? 0) / 1024,
      displayValue: a.displayValue ?? '',
    });
  }
  opportunities.sort((x, y) => weight(y) - weight(x));

  return {
    page,
    label,
    url,
    round,
    numbers: {
      perf: score('performance'),
      a11y: score('accessibility'),
      bp: score('best-practices'),
      seo: score('seo'),
      fcp: metric('fcp'),
      lcp: metric('lcp'),
      tbt: metric('tbt'),
      cls: metric('cls'),
      si: metric('si'),
      requests: requests.length,
      kb: kb(requests),
      jsKb: kb(ofType('Script')),
      fontKb: kb(ofType('Font')),
      cssKb: kb(ofType('Stylesheet')),
      otherOrigin: other.length,
      consoleErrors: consoleItems.length,
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? NaN,
    },
    failing,
    opportunities,
    otherOriginUrls: other.map((r) => r.url),
    consoleErrors: consoleItems.map((e) => `${e.source ?? ''}: ${(e.description ?? '').split('\n')[0]}`),
    lcpElement: lcpElement(lhr),
  };
}

/** One number to rank diagnostics by: the paint savings first, then blocking time, then bytes. */
function weight(o: Opportunity): number {
  return Math.max(o.lcp, o.fcp) + o.tbt + o.cls * 1000 + o.kb / 100;
}

/** The LCP element's HTML snippet, from the largest-contentful-paint-element audit. */
function lcpElement(lhr: Result): string | undefined {
  const walk = (v: unknown): string | undefined => {
    if (!v || typeof v !== 'object') return undefined;
    const o = v as Record<string, unknown>;
    if (o.type === 'node' && typeof o.snippet === 'string') return o.snippet;
    for (const child of Object.values(o)) {
      const found = walk(child);
      if (found) return found;
    }
    return undefined;
  };
  return walk(lhr.audits['largest-contentful-paint-element']?.details);
}

// ── running ───────────────────────────────────────────────────────────────────────────────

const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let killCurrent: (() => void) | null = null;

async function runOnce(url: string, desktop: boolean, applied: boolean): Promise<Result> {
  const { launch } = await import('chrome-launcher');
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const chrome = await launch({ chromePath: process.env.CHROME_PATH || '/usr/bin/chromium', chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  killCurrent = () => chrome.kill();
  try {
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], ...(applied ? { throttlingMethod: 'devtools' as const } : {}) };
    const config: Config | undefined = desktop ? desktopConfig : undefined;
    const r = await lighthouse(url, flags, config);
    if (!r) throw new Error('Lighthouse returned no result');
    if (r.lhr.runtimeError) throw new Error(`${r.lhr.runtimeError.code}: ${r.lhr.runtimeError.message}`);
    return r.lhr;
  } finally {
    killCurrent = null;
    chrome.kill();
  }
}

function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return 'uptime: n/a';
  }
}

// ── printing ──────────────────────────────────────────────────────────────────────────────

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const COLUMNS: [keyof Numbers, string, number, (v: number) => string][] = [
  ['perf', 'perf', 5, (v) => v.toFixed(0)],
  ['a11y', 'a11y', 5, (v) => v.toFixed(0)],
  ['bp', 'bp', 4, (v) => v.toFixed(0)],
  ['seo', 'seo', 4, (v) => v.toFixed(0)],
  ['fcp', 'FCP ms', 7, (v) => v.toFixed(0)],
  ['lcp', 'LCP ms', 7, (v) => v.toFixed(0)],
  ['tbt', 'TBT ms', 7, (v) => v.toFixed(0)],
  ['cls', 'CLS', 6, (v) => v.toFixed(3)],
  ['si', 'SI ms', 7, (v) => v.toFixed(0)],
  ['requests', 'req', 4, (v) => v.toFixed(0)],
  ['kb', 'kB', 6, (v) => v.toFixed(0)],
  ['jsKb', 'js kB', 6, (v) => v.toFixed(0)],
  ['fontKb', 'font kB', 8, (v) => v.toFixed(0)],
  ['cssKb', 'css kB', 7, (v) => v.toFixed(1)],
  ['otherOrigin', 'other', 6, (v) => v.toFixed(0)],
  ['consoleErrors', 'errors', 7, (v) => v.toFixed(0)],
  ['benchmarkIndex', 'BI', 6, (v) => v.toFixed(0)],
];

function fmtOpportunity(o: Opportunity): string {
  const parts: string[] = [];
  if (o.lcp || o.fcp) parts.push(`LCP −${o.lcp.toFixed(0)}/FCP −${o.fcp.toFixed(0)} ms`);
  if (o.tbt) parts.push(`TBT −${o.tbt.toFixed(0)} ms`);
  if (o.cls) parts.push(`CLS −${o.cls.toFixed(3)}`);
  if (o.kb >= 1) parts.push(`${o.kb.toFixed(0)} kB`);
  if (!parts.length && o.displayValue) parts.push(o.displayValue);
  return `${o.id}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

function report(all: RunSummary[], pages: Page[], targets: Target[], runs: number) {
  const ok = all.filter((r) => r.numbers);
  const wPage = Math.max(8, ...pages.map((p) => p.path.length)) + 1;
  const wLabel = Math.max(6, ...targets.map((t) => t.label.length)) + 1;
  console.log(`\n${runs > 1 ? `medians of ${runs} runs` : 'one run each'}; scores 0–100; kB transferred; other = requests to another origin than the page's; errors = console errors; BI = Lighthouse's benchmark index of the machine during the run (higher = faster CPU; TBT scales with its inverse)`);
  console.log(`${'page'.padEnd(wPage)}${'web'.padEnd(wLabel)}${COLUMNS.map(([, h, w]) => h.padStart(w)).join('')}`);
  for (const p of pages) {
    for (const t of targets) {
      const rs = ok.filter((r) => r.page === p.path && r.label === t.label);
      const failed = all.filter((r) => r.page === p.path && r.label === t.label && r.error).length;
      if (!rs.length) {
        console.log(`${p.path.padEnd(wPage)}${t.label.padEnd(wLabel)}  (no successful run)`);
        continue;
      }
      const cells = COLUMNS.map(([k, , w, f]) => f(median(rs.map((r) => r.numbers![k]))).padStart(w));
      console.log(`${p.path.padEnd(wPage)}${t.label.padEnd(wLabel)}${cells.join('')}${failed ? `   (${failed} run(s) failed)` : ''}`);
    }
  }

  console.log('\nwhat to fix (failing audits: id ×items flagged; `n/N` = in n of N runs) and the top performance diagnostics by estimated savings:');
  for (const p of pages) {
    for (const t of targets) {
      const rs = ok.filter((r) => r.page === p.path && r.label === t.label);
      if (!rs.length) continue;
      console.log(`${p.path}  [${t.label}]`);
      for (const [c, short] of [['accessibility', 'a11y'], ['best-practices', 'bp'], ['seo', 'seo']] as const) {
        const seen = new Map<string, { runs: number; items: number[] }>();
        for (const r of rs) {
          for (const f of r.failing![c]) {
            const e = seen.get(f.id) ?? { runs: 0, items: [] };
            e.runs++;
            e.items.push(f.items);
            seen.set(f.id, e);
          }
        }
        const list = [...seen].map(([id, e]) => `${id}${median(e.items) ? ` ×${median(e.items)}` : ''}${e.runs < rs.length ? ` ${e.runs}/${rs.length}` : ''}`);
        console.log(`  ${short.padEnd(5)} ${list.length ? list.join(', ') : '—'}`);
      }
      // Medians of each diagnostic's savings over the runs it failed in.
      const byId = new Map<string, Opportunity[]>();
      for (const r of rs) for (const o of r.opportunities!) byId.set(o.id, [...(byId.get(o.id) ?? []), o]);
      const ops = [...byId].map(([id, os]) => ({
        id,
        lcp: median(os.map((o) => o.lcp)),
        fcp: median(os.map((o) => o.fcp)),
        tbt: median(os.map((o) => o.tbt)),
        cls: median(os.map((o) => o.cls)),
        kb: median(os.map((o) => o.kb)),
        displayValue: os[0].displayValue,
      }));
      ops.sort((x, y) => weight(y) - weight(x));
      console.log(`  perf  ${ops.length ? ops.slice(0, 6).map(fmtOpportunity).join('; ') : '—'}`);
      const lcp = rs.find((r) => r.lcpElement)?.lcpElement;
      if (lcp) console.log(`  LCP element: ${lcp.length > 140 ? `${lcp.slice(0, 137)}…` : lcp}`);
    }
  }

  // Keyed without the query string (the Google API loader's callback name changes per load).
  const otherSeen = new Map<string, { where: string; runs: Set<RunSummary> }>();
  for (const r of ok) {
    for (const u of r.otherOriginUrls!) {
      const key = u.split('?')[0];
      const e = otherSeen.get(key) ?? { where: `${r.page} [${r.label}]`, runs: new Set<RunSummary>() };
      e.runs.add(r);
      otherSeen.set(key, e);
    }
  }
  console.log(`\nrequests to another origin (query strings left out; where first seen, in how many of the ${ok.length} runs): ${otherSeen.size ? '' : 'none'}`);
  for (const [u, e] of otherSeen) console.log(`  ${u.length > 110 ? `${u.slice(0, 107)}…` : u}   ${e.where}, ${e.runs.size} runs`);

  const errSeen = new Map<string, string>();
  for (const r of ok) for (const e of r.consoleErrors!) if (!errSeen.has(e)) errSeen.set(e, `${r.page} [${r.label}]`);
  console.log(`\nconsole errors (each once, where first seen): ${errSeen.size ? '' : 'none'}`);
  for (const [e, where] of errSeen) console.log(`  ${e.length > 160 ? `${e.slice(0, 157)}…` : e}   ${where}`);

  const errors = all.filter((r) => r.error);
  if (errors.length) {
    console.log('\nfailed runs:');
    for (const r of errors) console.log(`  ${r.page} [${r.label}] round ${r.round + 1}: ${r.error}`);
  }
}

// ── main ──────────────────────────────────────────────────────────────────────────────────

async function main() {
  const { targets, runs, pages: only, desktop, applied, json } = parseArgs(process.argv.slice(2));
  const loadStart = uptime();
  console.log(`Lighthouse on ${targets.map((t) => `${t.label}=${t.base}`).join(', ')}; ${desktop ? 'desktop preset' : 'mobile'}, ${applied ? 'throttling applied in the browser (devtools)' : 'simulated throttling (default config)'}; ${runs} run(s) per page and web`);
  console.log(`load at start: ${loadStart}`);

  const article = await firstArticle(targets[0].base);
  let pages = FIXED_PAGES.map((p) => (p.name === 'article' ? { ...p, path: article } : p));
  if (only) {
    pages = pages.filter((p) => only.some((o) => o === p.name || o === p.path || (p.name === 'article' && o === '/magazine/[slug]')));
    if (!pages.length) usage(`no page matches --pages ${only.join(',')}`);
  }

  // One plain request per page and web first: warm server-rendered pages, build ISR ones.
  for (const t of targets) {
    for (const p of pages) {
      try {
        const r = await fetch(`${t.base}${p.path}`);
        await r.arrayBuffer();
        if (r.status !== 200) console.log(`  warning: ${t.label} ${p.path} answers ${r.status}`);
      } catch (e) {
        console.log(`  warning: ${t.label} ${p.path}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  const all: RunSummary[] = [];
  const started = Date.now();
  for (let round = 0; round < runs; round++) {
    for (const [pi, p] of pages.entries()) {
      // Rotate the labels' order per round and page, so no web always goes first.
      for (const t of rotation(targets, round, pi)) {
        const url = `${t.base}${p.path}`;
        const t0 = Date.now();
        try {
          const lhr = await runOnce(url, desktop, applied);
          const s = summarise(lhr, p.path, t.label, url, round);
          all.push(s);
          const n = s.numbers!;
          console.log(`  round ${round + 1} ${p.path} [${t.label}] perf ${n.perf} a11y ${n.a11y} bp ${n.bp} seo ${n.seo}  LCP ${n.lcp.toFixed(0)} ms TBT ${n.tbt.toFixed(0)} ms  BI ${n.benchmarkIndex.toFixed(0)}  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
        } catch (e) {
          const error = e instanceof Error ? e.message : String(e);
          all.push({ page: p.path, label: t.label, url, round, error });
          console.log(`  round ${round + 1} ${p.path} [${t.label}] failed: ${error}`);
        }
      }
    }
  }

  report(all, pages, targets, runs);
  const loadEnd = uptime();
  console.log(`\nload at start: ${loadStart}`);
  console.log(`load at end:   ${loadEnd}`);
  console.log(`${all.length} Lighthouse runs in ${((Date.now() - started) / 60000).toFixed(1)} min`);

  if (json) {
    fs.writeFileSync(json, JSON.stringify({ date: new Date().toISOString(), desktop, applied, runs, targets, pages, loadStart, loadEnd, results: all }, null, 2));
    console.log(`summary written to ${json}`);
  }
}

process.on('SIGINT', () => {
  killCurrent?.();
  process.exit(130);
});

main().catch((e) => {
  killCurrent?.();
  console.error(e);
  process.exit(1);
});
