/**
 * Search latency of the real api (buildApp on PostgreSQL, the same way bench/play-common.ts
 * builds it) over two catalogues: the repository's (games/ + content/) and a synthetic one of
 * 1,000 titles with 5,000 recent plays, each in a throwaway schema dropped at the end.
 *
 * For each query kind: N sequential GET /v1/catalog/search over loopback (keep-alive), then
 * p50 / p95 / max in ms; then a mixed load at a fixed concurrency for a few seconds, in req/s.
 *
 *   npx tsx server/dev/with-services.ts -- node_modules/.bin/tsx bench/search-latency.ts [--n 200] [--seconds 3] [--concurrency 8]
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const argv = process.argv.slice(2);
const arg = (name: string, def: number): number => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? Number(argv[i + 1]) : def;
};
const N = arg('n', 200);
const SECONDS = arg('seconds', 3);
const CONCURRENCY = arg('concurrency', 8);

const KINDS: { kind: string; q: string }[] = [
  { kind: 'hiragana prefix', q: 'ほし' },
  { kind: 'kanji contains', q: '物語' },
  { kind: 'katakana → hiragana', q: 'シグナル' },
  { kind: 'half-width kana', q: 'ｼｸﾞﾅﾙ' },
  { kind: 'full-width latin', q: 'ＳＦ' },
  { kind: 'two terms', q: '星 短編' },
  { kind: 'brand', q: '夕凪ソフト' },
  { kind: 'no match (suggestions)', q: 'zzzzqqq' },
  { kind: 'empty (suggestions)', q: '' },
  { kind: '100 characters', q: 'の'.repeat(100) },
];

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

async function timed(base: string, q: string): Promise<number> {
  const t0 = performance.now();
  const response = await fetch(`${base}/v1/catalog/search?q=${encodeURIComponent(q)}&limit=20`);
  const body = (await response.json()) as { status: string; total: number };
  if (response.status !== 200 || body.status !== 'ok') throw new Error(`search ${q}: HTTP ${response.status}`);
  return performance.now() - t0;
}

async function measure(label: string, base: string): Promise<void> {
  console.log(`\n${label}`);
  console.log('  query kind                  hits   p50 ms   p95 ms   max ms');
  for (const { kind, q } of KINDS) {
    const hits = ((await (await fetch(`${base}/v1/catalog/search?q=${encodeURIComponent(q)}`)).json()) as { total: number }).total;
    for (let i = 0; i < 10; i++) await timed(base, q); // warm-up
    const xs: number[] = [];
    for (let i = 0; i < N; i++) xs.push(await timed(base, q));
    const f = (x: number) => x.toFixed(2).padStart(8);
    console.log(`  ${kind.padEnd(26)} ${String(hits).padStart(5)} ${f(quantile(xs, 0.5))} ${f(quantile(xs, 0.95))} ${f(Math.max(...xs))}`);
  }
  // mixed load: CONCURRENCY workers cycling through the kinds for SECONDS
  const deadline = performance.now() + SECONDS * 1000;
  const all: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      for (let i = w; performance.now() < deadline; i++) all.push(await timed(base, KINDS[i % KINDS.length].q));
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `  mixed, ${CONCURRENCY} concurrent for ${SECONDS} s: ${(all.length / secs).toFixed(0)} req/s, p50 ${quantile(all, 0.5).toFixed(2)} ms, p95 ${quantile(all, 0.95).toFixed(2)} ms, max ${Math.max(...all).toFixed(2)} ms`,
  );
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    console.error('search-latency needs PostgreSQL and the Auth emulator: run it under server/dev/with-services.ts');
    process.exit(2);
  }
  const bound = setTimeout(() => {
    console.error('bench: over 5 min, stopping');
    process.exit(2);
  }, 300_000);
  bound.unref();
  const { startSessionApp } = await import('../server/api/testing/sessions');
  const { createTestSchema } = await import('../server/api/testing/test-app');
  const { FIXTURE_BRANDS, syntheticTitles, writeCatalogue } = await import('../server/api/services/catalogue/fixture');

  console.log(`search latency: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join('/')}, node ${process.version}, n=${N} per kind`);

  // the repository's catalogue
  const realSchema = await createTestSchema('bench_search');
  const real = await startSessionApp(realSchema.name, { sweeper: false });
  try {
    const titles = ((await (await fetch(`${real.base}/v1/catalog/titles?limit=100`)).json()) as { titles: unknown[] }).titles.length;
    await measure(`real catalogue (${titles} titles)`, real.base);
  } finally {
    await real.close();
    await realSchema.drop();
  }

  // 1,000 synthetic titles
  const root = await mkdtemp(path.join(os.tmpdir(), 'yc-bench-search-'));
  const synthSchema = await createTestSchema('bench_search');
  const titles = syntheticTitles(1000);
  const dirs = await writeCatalogue(root, { brands: FIXTURE_BRANDS, titles });
  process.env.CONTENT_DIR = dirs.contentDir;
  const synth = await startSessionApp(synthSchema.name, { gamesDir: dirs.gamesDir, sweeper: false });
  try {
    // plays: 5,000 sessions that reached playing in the last 30 days, over 200 users
    const uids = Array.from({ length: 200 }, () => `bench-${randomUUID()}`);
    await synthSchema.pool.query('INSERT INTO users (uid) SELECT unnest($1::text[])', [uids]);
    await synthSchema.pool.query(
      `INSERT INTO sessions (id, uid, game_id, state, playing_at, ended_at)
       SELECT gen_random_uuid(), ($1::text[])[1 + (i % 200)], ($2::text[])[1 + ((i * 7919) % 1000)], 'closed',
              now() - make_interval(mins => i * 8), now() - make_interval(mins => i * 8 - 5)
         FROM generate_series(1, 5000) AS i`,
      [uids, titles.map((t) => t.id)],
    );
    await measure('synthetic catalogue (1,000 titles, 5,000 plays in 30 days)', synth.base);
  } finally {
    await synth.close();
    await synthSchema.drop();
    delete process.env.CONTENT_DIR;
    await rm(root, { recursive: true, force: true });
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
