/**
 * When a public page is shown and when it can be used, on a throttled phone (issue 12: what the
 * boot gate, lib/security/bootGate.ts, costs): first contentful paint, the largest contentful
 * paint, and the end of Next's hydration (the end of its `Next.js-hydration` performance measure:
 * from then on the page's buttons answer), for one or several running webs side by side, each page loaded in a
 * fresh context (empty cache) under Lighthouse's mobile throttling applied in the browser (the
 * figures of its `devtools` method: 562.5 ms request latency, 1,474.56 kbit/s down, 675 up, CPU
 * 4× slower) at a phone's viewport. Runs are interleaved page by page, the webs' order rotating;
 * `--runs N` reports medians and every run.
 *
 * Usage: npx tsx bench/hydration.ts [--url label=baseUrl]… [--runs 3] [--pages /,/search,…]
 * Needs running webs (`npm start`) on loopback and Debian Chromium (CHROME_PATH, default
 * /usr/bin/chromium).
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright';
import { checkTargets, parseTarget, rotation, type Target } from './web-targets';

const DEFAULT_PAGES = ['/', '/title/amayadori-cafe', '/search', '/brand', '/magazine', '/magazine/the-question-renpy', '/upgrade'];
/** Lighthouse's mobile throttling as its `devtools` method applies it (constants.throttling.mobileSlow4G). */
const NETWORK = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

function usage(message: string): never {
  console.error(`${message}\nusage: npx tsx bench/hydration.ts [--url label=baseUrl]… [--runs N] [--pages /,/search,…]`);
  process.exit(1);
}

function options(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { url: { type: 'string', multiple: true }, runs: { type: 'string' }, pages: { type: 'string' } } }));
  } catch (error) {
    usage((error as Error).message);
  }
  const targets: Target[] = (values.url ?? ['web=http://127.0.0.1:3000']).map((u, i) => parseTarget(u, i + 1));
  checkTargets(targets, usage);
  const runs = Math.max(1, Number(values.runs ?? 3) || 1);
  const pages = values.pages ? values.pages.split(',').map((p) => p.trim()).filter(Boolean) : DEFAULT_PAGES;
  return { targets, runs, pages };
}

interface Sample {
  fcp: number;
  lcp: number;
  hydrated: number;
}

/** One load of `url` in a fresh context under the phone's throttling. */
async function measure(browser: Browser, url: string): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp?: number };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__lcp = e.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(() => performance.getEntriesByName('Next.js-hydration').length > 0, null, { timeout: 30_000 });
    await page.waitForTimeout(500);
    return await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      lcp: (window as unknown as { __lcp?: number }).__lcp ?? NaN,
      hydrated: ((m) => m.startTime + m.duration)(performance.getEntriesByName('Next.js-hydration')[0]),
    }));
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

async function main() {
  const { targets, runs, pages } = options(process.argv.slice(2));
  console.log(`hydration on ${targets.map((t) => `${t.label}=${t.base}`).join(', ')}; mobile throttling applied; ${runs} run(s) per page and web`);
  console.log(`load at start: ${load()}`);
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const samples = new Map<string, Sample[]>();
  try {
    for (let round = 0; round < runs; round++) {
      for (const [p, path] of pages.entries()) {
        for (const t of rotation(targets, round, p)) {
          const s = await measure(browser, t.base + path);
          const key = `${path}\t${t.label}`;
          samples.set(key, [...(samples.get(key) ?? []), s]);
          console.log(`  round ${round + 1} ${path} [${t.label}] FCP ${s.fcp.toFixed(0)} LCP ${s.lcp.toFixed(0)} hydrated ${s.hydrated.toFixed(0)} ms`);
        }
      }
    }
  } finally {
    await browser.close();
  }
  console.log('\nmedians (ms from navigation start): page, web, FCP, LCP, hydrated; then every run\'s hydration');
  for (const [key, xs] of samples) {
    const m = (f: (s: Sample) => number) => median(xs.map(f)).toFixed(0).padStart(6);
    console.log(`${key.replace('\t', '  ').padEnd(44)} ${m((s) => s.fcp)} ${m((s) => s.lcp)} ${m((s) => s.hydrated)}   ${xs.map((s) => s.hydrated.toFixed(0)).join(', ')}`);
  }
  console.log(`load at end:   ${load()}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
