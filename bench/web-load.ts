/**
 * Requests per second that the web server serves on loopback, with autocannon (bounded: --duration
 * seconds per route, --connections connections): home (from the cache, its per-user rows on the
 * client), title pages (ISR: served from the cache, rebuilt every 60 s), a server-rendered search,
 * the brand page and the magazine. The api must be running too.
 *
 * Before and after in the same run: give each web a label (`--url before=http://127.0.0.1:3300
 * --url after=http://127.0.0.1:3000`). This machine is shared and noisy, so the webs are measured
 * interleaved, page by page, the labels' order rotating per round and page (as bench/lighthouse.ts
 * does), and `--rounds N` reports each page's median per web with the rounds' range. Figures only;
 * never fails on speed.
 *
 * Usage: npx tsx bench/web-load.ts [--url label=baseUrl | baseUrl]… [--rounds 1] [--duration 10] [--connections 20]
 *   (no --url: http://127.0.0.1:3000)
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { checkTargets, parseTarget, rotation, type Target } from './web-targets';

interface Reading {
  rps: number;
  p50: number;
  p99: number;
  kBps: number;
  non2xx: number;
}

const PATHS = ['/', '/title/hajimari-no-eki', '/title/hoshifuru-toshokan', `/search?q=${encodeURIComponent('しぐなる')}`, '/brand', '/magazine', '/magazine/hajimari-no-eki-review'];

function usage(message: string): never {
  console.error(`${message}\nusage: npx tsx bench/web-load.ts [--url label=baseUrl | baseUrl]… [--rounds N] [--duration S] [--connections C]`);
  process.exit(1);
}

function parseArgs(argv: string[]) {
  const targets: Target[] = [];
  let rounds = 1;
  let duration = 10;
  let connections = 20;
  const count = (v: string | undefined, name: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) usage(`${name} takes a whole number ≥ 1`);
    return n;
  };
  const addTarget = (v: string) => targets.push(parseTarget(v, targets.length + 1));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') addTarget(argv[++i] ?? usage('--url takes label=baseUrl'));
    else if (a === '--rounds') rounds = count(argv[++i], '--rounds');
    else if (a === '--duration') duration = count(argv[++i], '--duration');
    else if (a === '--connections') connections = count(argv[++i], '--connections');
    else if (!a.startsWith('--')) addTarget(a);
    else usage(`unknown option ${a}`);
  }
  if (targets.length === 0) targets.push({ label: 'web', base: 'http://127.0.0.1:3000' });
  checkTargets(targets, usage);
  return { targets, rounds, duration, connections };
}

async function measure(url: string, connections: number, duration: number): Promise<Reading> {
  const r = await autocannon({ url, connections, duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, kBps: r.throughput.average / 1024, non2xx: r.non2xx };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main() {
  const { targets, rounds, duration, connections } = parseArgs(process.argv.slice(2));
  const load = () => os.loadavg()[0].toFixed(1);
  console.log(`web load (${connections} connections, ${duration} s a page, ${rounds} round${rounds > 1 ? 's' : ''}, interleaved): ${targets.map((t) => `${t.label} ${t.base}`).join(', ')}`);
  console.log(`${new Date().toISOString()}, load ${load()}`);
  // One request each first, so ISR pages are built before they are measured.
  for (const t of targets) for (const p of PATHS) await fetch(`${t.base}${p}`).then((r) => r.arrayBuffer());
  const readings = new Map<string, Reading[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [pi, p] of PATHS.entries()) {
      for (const t of rotation(targets, round, pi)) {
        const r = await measure(`${t.base}${p}`, connections, duration);
        const key = `${t.label} ${p}`;
        readings.set(key, [...(readings.get(key) ?? []), r]);
        if (rounds > 1 || targets.length > 1) console.log(`  round ${round + 1} ${t.label.padEnd(8)} ${decodeURI(p).padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s`);
      }
    }
  }
  console.log(`\nmedians${rounds > 1 ? ` of ${rounds} (range)` : ''}, ${new Date().toISOString()}, load ${load()}`);
  for (const p of PATHS) {
    for (const t of targets) {
      const rs = readings.get(`${t.label} ${p}`) ?? [];
      const rps = rs.map((r) => r.rps);
      const range = rounds > 1 ? ` (${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)})` : '';
      console.log(
        `${t.label.padEnd(8)} ${decodeURI(p).padEnd(34)} ${median(rps).toFixed(0).padStart(7)} req/s${range}   p50 ${median(rs.map((r) => r.p50))} ms   p99 ${median(rs.map((r) => r.p99))} ms   ${median(rs.map((r) => r.kBps)).toFixed(0)} kB/s   non-2xx ${rs.reduce((n, r) => n + r.non2xx, 0)}`,
      );
    }
  }
}

void main();
