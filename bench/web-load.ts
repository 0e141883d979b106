/**
 * Requests per second that the web server serves for / and a title page, on loopback, with
 * autocannon (bounded: 10 s per route, 20 connections). Usage: npx tsx bench/web-load.ts [http://127.0.0.1:3000]
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
    `${path.padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   ${(r.throughput.average / 1024).toFixed(0)} kB/s   non-2xx ${r.non2xx}`,
  );
}

async function main() {
  console.log(`web load on ${base} (20 connections, 10 s each)`);
  for (const p of ['/', '/title/hajimari-no-eki', '/title/hoshifuru-toshokan']) await measure(p);
}

void main();
