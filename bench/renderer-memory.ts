/**
 * What a session's renderer memory IS, allocator by allocator (issue 11: ≤ 150 MB per session; a
 * playing session's renderer holds ~190 MB of anonymous memory). One session per configuration
 * (bench/play-configs.ts --config; default `after`), started as bench/session-memory.ts starts it
 * (play-session.ts: a fresh host, a cheap peer, into the story), and at each phase
 *   - `warm page` (with --warm: a warm runtime of the pool before the click: the page's baseline),
 *   - `still line` (--still seconds, 15, after the click),
 *   - `after reading` (Enter and '1' every 250 ms for --read seconds, 60, then --rest seconds still, 10),
 *   - `then gc()` (a full collection right after, where the page has gc(): what of it was garbage;
 *     only with a Chromium run with --js-flags=--expose-gc, e.g. through a CHROMIUM_PATH wrapper),
 * the renderer is read three ways:
 *   1. Chromium's own accounting: a `disabled-by-default-memory-infra` trace with one detailed
 *      dump (Tracing.start with memoryDumpConfig, Tracing.requestMemoryDump, Tracing.end through a
 *      CDP session of the host's page), the renderer's allocator dumps (malloc, partition_alloc,
 *      v8, blink_gc, skia, cc, canvas, web_cache, font_caches, discardable, media, webrtc, …):
 *      each top-level allocator's size and the biggest dumps under it;
 *   2. /proc/<pid>/smaps_rollup: PSS and its anonymous / file / shmem parts;
 *   3. /proc/<pid>/smaps, the anonymous memory by the reservation it lives in (contiguous
 *      anonymous mappings, read by size and alignment: V8's sandbox and cage, PartitionAlloc's
 *      pools, Oilpan's cage, glibc's arenas and [heap], thread stacks, single large mmaps), which
 *      places what the allocator dumps leave out.
 * --raw <dir> keeps each phase's trace events and smaps; --env K=V,K2=V2 adds host settings to
 * every configuration (scratch levers). Figures only; never fails on size.
 *
 *   npx tsx bench/renderer-memory.ts [--fake] [--config after,after+pcm] [--still 15] [--read 60] [--rest 10] [--warm] [--raw /tmp/rm] [--env HOST_X=1]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { readProc, sessionFootprint } from '../server/host/procs';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import { memoryInfraTrace, pssByMapping } from './memory-dump';
import { arg, finish, flag } from './play-common';
import { printTable, printTables, type Row } from './play-configs';
import { eachConfig, setUp, storySession } from './play-session';
import { pageRuntimes } from '../server/host/testing/page-runtime';

const STILL_S = Math.max(1, Number(arg('still', '15')));
const READ_S = Math.max(0, Number(arg('read', '60')));
const REST_S = Math.max(0, Number(arg('rest', '10')));
const WARM = flag('warm');
const RAW = arg('raw', '');
const ENV = Object.fromEntries(
  arg('env', '')
    .split(',')
    .filter((kv) => kv.includes('='))
    .map((kv) => [kv.slice(0, kv.indexOf('=')).trim(), kv.slice(kv.indexOf('=') + 1).trim()]),
);
const MB = 2 ** 20;

interface AllocatorDump {
  attrs?: Record<string, { value: string; units?: string }>;
}
interface TraceEvent {
  ph: string;
  pid: number;
  args?: { dumps?: { allocators?: Record<string, AllocatorDump>; process_totals?: Record<string, string> } };
}

/** One reading of the renderer: figure → MB. */
export type Reading = Record<string, number>;

const hex = (v: string | undefined): number => (v ? parseInt(v, 16) : 0);
const sizeOf = (d: AllocatorDump | undefined): number => hex(d?.attrs?.size?.value) / MB;


/**
 * The renderer's allocators: per top-level allocator its size (the top dump's `size`, which
 * Chromium gives as the allocator's whole footprint; children summed where the top has none),
 * `of which` its biggest dumps two levels down (≥ 1 MB), and the process totals.
 */
export function allocatorReading(dump: Record<string, AllocatorDump>, totals: Record<string, string> = {}, directMaps: string[] = []): Reading {
  const out: Reading = {};
  const tops = new Set(Object.keys(dump).map((n) => n.split('/')[0]));
  for (const top of tops) {
    const own = dump[top]?.attrs?.size;
    const kids = Object.entries(dump).filter(([n]) => n.split('/').length === 2 && n.startsWith(`${top}/`));
    const mb = own ? sizeOf(dump[top]) : kids.reduce((s, [, d]) => s + sizeOf(d), 0);
    if (mb >= 0.05) out[`${top}`] = mb;
  }
  // the biggest parts (depth 2 and 3; an object pool's many small dumps are summed by their pattern)
  const parts: Reading = {};
  for (const [n, d] of Object.entries(dump)) {
    const depth = n.split('/').length;
    // (`…/__<hash>`: another allocator's share of a dump, already counted there)
    if (depth < 2 || depth > 3 || !d.attrs?.size || n.includes('/__')) continue;
    const key = n.replace(/0x[0-9a-f]+/gi, '*').replace(/\/\d+(?=\/|$)/g, '/*');
    parts[key] = (parts[key] ?? 0) + sizeOf(d);
  }
  for (const [k, v] of Object.entries(parts)) if (v >= 1) out[`  ${k}`] = v;
  // each PartitionAlloc partition: its slot buckets (objects < ~1 MB) and its direct maps (one
  // mapping per big object: canvases' pixels, decoded audio, response bodies, frame buffers)
  for (const part of Object.keys(dump).filter((n) => /^(malloc|partition_alloc)\/partitions\/[^/<]+$/.test(n))) {
    const buckets = Object.entries(dump).filter(([n]) => n.startsWith(`${part}/buckets/`) && n.split('/').length === part.split('/').length + 2);
    const direct = buckets.filter(([n]) => n.includes('directMap')).map(([, d]) => sizeOf(d)).sort((a, b) => b - a);
    const slots = buckets.filter(([n]) => !n.includes('directMap')).reduce((s, [, d]) => s + sizeOf(d), 0);
    if (slots >= 0.5) out[`  ${part}: slot buckets`] = slots;
    if (direct.length) {
      out[`  ${part}: direct maps`] = direct.reduce((s, x) => s + x, 0);
      out[`  ${part}: direct maps (count)`] = direct.length;
      directMaps.push(`${part}: ${direct.map((x) => x.toFixed(1)).join(' ')}`);
    }
  }
  if (totals.private_footprint_bytes) out['(private footprint, Chromium)'] = hex(totals.private_footprint_bytes) / MB;
  return out;
}

interface Vma {
  start: bigint;
  end: bigint;
  perms: string;
  name: string;
  pss: number;
  anon: number;
}

function readSmaps(pid: number): Vma[] {
  let text = '';
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return [];
  }
  const out: Vma[] = [];
  for (const line of text.split('\n')) {
    const h = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (h) {
      out.push({ start: BigInt(`0x${h[1]}`), end: BigInt(`0x${h[2]}`), perms: h[3], name: h[4].trim(), pss: 0, anon: 0 });
      continue;
    }
    const v = out[out.length - 1];
    const m = /^(Pss|Anonymous):\s+(\d+) kB/.exec(line);
    if (v && m) v[m[1] === 'Pss' ? 'pss' : 'anon'] += Number(m[2]) / 1024;
  }
  return out;
}

const GB = 2n ** 30n;
const MiB = 2n ** 20n;

/**
 * The anonymous memory (PSS of mappings without a file) by reservation: contiguous anonymous
 * mappings form one reservation, named by its size (Chromium 15x on x86-64: V8's sandbox 1 TB
 * with its 4 GB pointer cage and the ArrayBuffers' pool inside, PartitionAlloc's pools of 16+ GB,
 * Oilpan's 4–16 GB cage, glibc arenas of 64 MB, stacks of 8 MB behind a guard page).
 */
export function anonByReservation(pid: number): Reading {
  const vmas = readSmaps(pid);
  const out: Reading = {};
  const add = (k: string, mb: number) => {
    if (mb > 0) out[k] = (out[k] ?? 0) + mb;
  };
  let run: Vma[] = [];
  const flush = () => {
    if (!run.length) return;
    const size = run[run.length - 1].end - run[0].start;
    const pss = run.reduce((s, v) => s + v.pss, 0);
    const guarded = run[0].perms.startsWith('---') && run.length === 2;
    const kind =
      size >= 512n * GB
        ? 'V8 sandbox (JS heap cage, ArrayBuffers, …)'
        : size >= 16n * GB
          ? `PartitionAlloc pool (${size / GB} GB reservation)`
          : size >= 4n * GB
            ? `cage of ${size / GB} GB (V8 / Oilpan)`
            : size === 64n * MiB && run[0].start % (64n * MiB) === 0n
              ? 'glibc malloc arenas (64 MB heaps)'
              : guarded && size <= 8n * MiB + 4096n * 2n
                ? 'thread stacks'
                : size >= 2n * MiB
                  ? 'other anonymous mappings ≥ 2 MB'
                  : 'other anonymous mappings < 2 MB';
    add(kind, pss);
    run = [];
  };
  for (const v of vmas) {
    const anonymous = v.name === '' || v.name.startsWith('[anon');
    if (v.name === '[heap]') {
      flush();
      add('glibc malloc main arena ([heap])', v.pss);
      continue;
    }
    if (v.name === '[stack]') {
      flush();
      add('thread stacks', v.pss);
      continue;
    }
    if (v.name.startsWith('[anon:')) {
      flush();
      add(`named ${v.name}`, v.pss);
      continue;
    }
    if (!anonymous) {
      flush();
      continue;
    }
    if (run.length && run[run.length - 1].end !== v.start) flush();
    run.push(v);
  }
  flush();
  return out;
}

/** smaps_rollup's PSS and its parts, MB. */
export function rollup(pid: number): Reading {
  const out: Reading = {};
  try {
    const t = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    for (const k of ['Rss', 'Pss', 'Pss_Anon', 'Pss_File', 'Pss_Shmem']) {
      const m = new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(t);
      if (m) out[k] = Number(m[1]) / 1024;
    }
  } catch {
    /* gone */
  }
  return out;
}

/** The three readings of the renderer `pid` of `page`, and a line for the session's other own processes. */
/** What the page has loaded (resource timing entries): MB decoded and count by initiator and extension. */
async function loaded(page: Page): Promise<Reading> {
  const entries = (await page.evaluate(
    "performance.getEntriesByType('resource').map((e) => [e.initiatorType, e.name, e.decodedBodySize])",
  )) as [string, string, number][];
  const out: Reading = {};
  for (const [type, url, size] of entries) {
    const ext = /\.(\w+)(?:\?|$)/.exec(new URL(url).pathname)?.[1] ?? '-';
    out[`${type} .${ext} (MB)`] = (out[`${type} .${ext} (MB)`] ?? 0) + size / MB;
    out[`${type} .${ext} (count)`] = (out[`${type} .${ext} (count)`] ?? 0) + 1;
  }
  return out;
}

async function readRenderer(page: Page, pids: number[], label: string): Promise<{ infra: Reading; proc: Reading; anon: Reading; mapping: Reading; others: Reading; loaded: Reading }> {
  // the page's renderer is the biggest of the session's own processes
  const sorted = [...pids].sort((a, b) => (rollup(b).Pss ?? 0) - (rollup(a).Pss ?? 0));
  const pid = sorted[0];
  const events = await memoryInfraTrace<TraceEvent>(page);
  const dumpOf = (p: number) => events.find((e) => e.ph === 'v' && e.pid === p && e.args?.dumps?.allocators);
  const mine = dumpOf(pid);
  if (!mine) console.error(`  no memory-infra dump for pid ${pid} (${events.filter((e) => e.ph === 'v').map((e) => e.pid).join(', ')})`);
  const direct: string[] = [];
  const infra = mine ? allocatorReading(mine.args!.dumps!.allocators!, mine.args!.dumps!.process_totals, direct) : {};
  // the chain's live sends (~27 MB when built: runtime/src/audio/chain.ts)
  const sends = await page.evaluate('JSON.stringify(window.yumecast.getState().audio.sends ?? null)').catch(() => '?');
  console.log(`  ${label}, pid ${pid}: audio sends built ${String(sends)}; direct maps (MB, each a big object):\n    ${direct.join('\n    ')}`);
  const others: Reading = {};
  for (const o of sorted.slice(1)) {
    const type = /--type=(\S+)/.exec(readProc(o)?.cmdline ?? '')?.[1] ?? '?';
    const r = rollup(o);
    const url = /--renderer-client-id=(\d+)/.exec(readProc(o)?.cmdline ?? '')?.[1] ?? '';
    others[`pid ${o} (${type}${url ? ` #${url}` : ''}) Pss`] = r.Pss ?? 0;
    others[`pid ${o} Pss_Anon`] = r.Pss_Anon ?? 0;
    const d = dumpOf(o);
    if (d) for (const [k, v] of Object.entries(allocatorReading(d.args!.dumps!.allocators!))) if (!k.startsWith(' ') && v >= 1) others[`pid ${o} ${k}`] = v;
  }
  if (RAW) {
    fs.mkdirSync(RAW, { recursive: true });
    const base = path.join(RAW, label.replace(/\W+/g, '-'));
    fs.writeFileSync(`${base}.trace.json`, JSON.stringify(events));
    // (/proc files report no size: read, then write)
    for (const p of sorted) fs.writeFileSync(`${base}.${p}.smaps`, fs.readFileSync(`/proc/${p}/smaps`));
  }
  return { infra, proc: rollup(pid), anon: anonByReservation(pid), mapping: pssByMapping(pid), others, loaded: await loaded(page) };
}

type Phase = Awaited<ReturnType<typeof readRenderer>>;

async function measure(cfg: string, b: Awaited<ReturnType<typeof setUp>>, host: TestAgent): Promise<Map<string, Phase>> {
  const out = new Map<string, Phase>();
  if (WARM) {
    await host.agent.pool.whenWarm(1, 120_000);
    const rt = pageRuntimes(host.agent.pool).find((r) => r.state !== 'dead');
    const pids = rt ? sessionFootprint(rt).own.pids : [];
    if (rt && pids.length) out.set('warm page', await readRenderer(rt.livePage, pids, `${cfg}-warm`));
  }
  const s = await storySession(b, host);
  try {
    const rt = host.agent.sessions.get(s.click.sid)!.runtime!;
    const pids = sessionFootprint(rt).own.pids;
    await sleep(s.click.t0 + STILL_S * 1000 - performance.now());
    out.set('still line', await readRenderer(s.page, pids, `${cfg}-still`));
    if (READ_S > 0) {
      await s.readingOn(true);
      await sleep(READ_S * 1000);
      await s.readingOn(false);
      await sleep(REST_S * 1000);
      out.set('after reading', await readRenderer(s.page, pids, `${cfg}-after-reading`));
      // what of it was garbage: a full collection, where the page has gc() (--js-flags=--expose-gc)
      if ((await s.page.evaluate("typeof gc === 'function' && (gc(), true)")) === true) {
        await sleep(2000);
        out.set('then gc()', await readRenderer(s.page, pids, `${cfg}-after-gc`));
      }
    }
  } finally {
    await s.end();
  }
  return out;
}

function rows(phases: Map<string, Phase>): Row[] {
  const out: Row[] = [];
  const all = [...phases.values()];
  const section = (title: string, pick: (p: Phase) => Reading, min = 0.5) => {
    out.push({ figure: title, values: Object.fromEntries([...phases.keys()].map((k) => [k, ''])) });
    const names = [...new Set(all.flatMap((p) => Object.keys(pick(p))))];
    const peak = (n: string) => Math.max(...all.map((p) => pick(p)[n] ?? 0));
    for (const n of names.filter((n) => peak(n) >= min).sort((a, b) => peak(b) - peak(a)))
      out.push({ figure: `  ${n}`, values: Object.fromEntries([...phases].map(([k, p]) => [k, (pick(p)[n] ?? 0).toFixed(1)])) });
  };
  section('/proc smaps_rollup (MB)', (p) => p.proc);
  section('memory-infra allocators (MB, size)', (p) => p.infra);
  section('anonymous PSS by reservation (MB)', (p) => p.anon);
  section('PSS by mapping (MB)', (p) => p.mapping, 2);
  section("the session's other own processes (MB)", (p) => p.others, 0.1);
  section('what the page loaded (resource timing: decoded MB, count)', (p) => p.loaded, 0.01);
  return out;
}

async function main(): Promise<void> {
  const b = await setUp(`renderer memory (still ${STILL_S} s, reading ${READ_S} s)`, 'after', 3);
  const figs = await eachConfig(b, { HOST_WARM_POOL: WARM ? '1' : '0', HOST_CAPACITY: '2', ...ENV }, async (cfg, host) => {
    const phases = await measure(cfg.name, b, host);
    printTable(`[${cfg.name}] the session's renderer (${new Date().toISOString().slice(11, 19)} UTC, load ${os.loadavg()[0].toFixed(1)})`, rows(phases), [...phases.keys()]);
    return phases;
  });
  if (b.configs.length > 1) {
    for (const phase of ['warm page', 'still line', 'after reading', 'then gc()']) {
      const per = new Map([...figs].filter(([, m]) => m.has(phase)).map(([c, m]) => [c, m.get(phase)!]));
      if (per.size) printTables(`the session's renderer, ${phase}`, rows(per), b.configs.filter((c) => per.has(c.name)));
    }
  }
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
