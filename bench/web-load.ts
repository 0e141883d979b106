/**
 * Requests per second that the web server serves on loopback, with autocannon (bounded: 10 s per
 * route, 20 connections): home (server-rendered from the catalogue api on every request), title
 * pages (ISR: served from the cache, rebuilt every 60 s), a server-rendered search, the brand page
 * and the magazine. The api must be running too. Usage: npx tsx bench/web-load.ts [http://127.0.0.1:3000]
 */
import autocannon from 'autocannon';

const base = (process.argv[2] ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const host = new URL(base).hostname;
if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
  console.error('this benchmark only targets loopback addresses');
  process.exit(1);
}

async function measure(path: string) {
  const r = await autocannon({ url: `${base}${path}`, connections: 20, duration: 10 });
  console.log(
    `${decodeURI(path).padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   ${(r.throughput.average / 1024).toFixed(0)} kB/s   non-2xx ${r.non2xx}`,
  );
}

async function main() {
  console.log(`web load on ${base} (20 connections, 10 s each)`);
  const paths = ['/', '/title/hajimari-no-eki', '/title/hoshifuru-toshokan', `/search?q=${encodeURIComponent('しぐなる')}`, '/brand', '/magazine', '/magazine/hajimari-no-eki-review'];
  // One request each first, so ISR pages are built before they are measured.
  for (const p of paths) await fetch(`${base}${p}`).then((r) => r.arrayBuffer());
  for (const p of paths) await measure(p);
}

void main();
