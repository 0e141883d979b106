/**
 * Memory of one playing session (issue 11: ≤ 150 MB per session, its share of every process it
 * uses). Per configuration (bench/play-configs.ts; default `-art,after`: the art budget off and
 * on), one session on a fresh host (no warm runtime; with --warm, started from a warm runtime as a
 * host serves most starts, its prewarm included, the pool's replacement beside it in the same
 * browser), received by a cheap peer (play-session.ts), into the story, then measured at each phase:
 *   - a still line --still seconds (15) after the click: the start's work done, idle time has
 *     rasterised the title's art (all of it kept without the budget);
 *   - reading on (Enter and '1' every 250 ms) for --read seconds (90): many lines and scenes, the
 *     peak over samples every 5 s and the figure at the end;
 *   - a still line 10 s after reading stops.
 * Each phase: the session's PSS (server/host/procs.ts sessionFootprint: its own processes, its
 * renderer, plus its share of its browser's other processes), the renderer's JS heap
 * (performance.memory), and the art store's figures (getState().art: rasters held and their bytes,
 * rasterised, freed); with --dump, the renderer's memory by Chromium's own allocators
 * (bench/memory-dump.ts: malloc, partition_alloc, v8, skia, cc, …; bench/renderer-memory.ts reads
 * them in detail). Figures only; never fails on size.
 *
 * Memory levers that are no host setting run as extra configurations before the others (--also
 * a,b), each `after` with one lever undone by the bench:
 *   -webui  Chromium launched through a wrapper (CHROMIUM_PATH) that lets the browser UI's WebUI
 *           renderer back in (server/host/browser-flags.ts BROWSER_UI_FEATURES);
 *   -fetch  a runtime build (HOST_RUNTIME_DIR) whose big files are fetched by the page itself, as
 *           before the fetch worker (runtime/src/fetch-bytes.ts; its worker made unable to start:
 *           the page's fallback).
 *
 *   npx tsx bench/session-memory.ts [--config -art,after] [--also -webui] [--still 15] [--read 90] [--dump] [--warm] [--game hajimari-no-eki] [--fake]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BROWSER_UI_FEATURES } from '../server/host/browser-flags';
import { CHROMIUM_PATH } from '../server/shared/chromium';
import { buildRuntime } from '../runtime/build';
import { sessionFootprint } from '../server/host/procs';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import type { ArtStats } from '../runtime/src/types';
import { num, printTable, printTables, type Row } from './play-configs';
import { pssByMapping, rendererAllocators, type Allocators } from './memory-dump';
import { arg, engineState, finish, flag } from './play-common';
import { eachConfig, setUp, storySession, type Bench } from './play-session';
import type { PlayConfig } from './play-configs';
import { pageOf } from '../server/host/testing/page-runtime';

const STILL_S = Math.max(1, Number(arg('still', '15')));
const READ_S = Math.max(5, Number(arg('read', '90')));
const DUMP = flag('dump');
const WARM = flag('warm');
const ALSO = arg('also', '').split(',').map((x) => x.trim()).filter(Boolean);
const SAMPLE_MS = 5000;
const MB = 2 ** 20;

interface Sample {
  /** The session's footprint: own processes + its share of the shared ones. */
  pssMb: number;
  ownMb: number;
  sharedMb: number;
  sharers: number;
  /** Its own processes (renderers). */
  ownProcs: number;
  heapMb: number;
  art: ArtStats | undefined;
  lines: number;
  scenes: number;
  /** --dump: the renderer's allocators (MB). */
  allocators?: Allocators;
}

async function sample(host: TestAgent, sid: string, scenes: Set<string>): Promise<Sample> {
  const s = host.agent.sessions.get(sid)!;
  const f = sessionFootprint(pageOf(s.runtime));
  const st = await engineState(host, sid);
  if (st.scene) scenes.add(st.scene);
  const heap = (await pageOf(s.runtime).livePage.evaluate('performance.memory ? performance.memory.usedJSHeapSize : NaN')) as number;
  let allocators: Allocators | undefined;
  if (DUMP) {
    allocators = await rendererAllocators(pageOf(s.runtime).livePage, f.own.pids);
    for (const pid of f.own.pids) for (const [k, v] of Object.entries(pssByMapping(pid))) allocators[`pss ${k}`] = (allocators[`pss ${k}`] ?? 0) + v;
  }
  return {
    pssMb: f.pss / MB,
    ownMb: f.own.pss / MB,
    sharedMb: f.shared.pss / MB / f.shared.sharers,
    sharers: f.shared.sharers,
    ownProcs: f.own.pids.length,
    heapMb: heap / MB,
    art: st.art,
    lines: st.lineCount,
    scenes: scenes.size,
    allocators,
  };
}

const phases = ['still line', 'reading, peak', 'reading, end', 'still after'];

async function measure(b: Bench, host: TestAgent): Promise<Map<string, Sample>> {
  const s = await storySession(b, host);
  const out = new Map<string, Sample>();
  const scenes = new Set<string>();
  try {
    await sleep(s.click.t0 + STILL_S * 1000 - performance.now());
    out.set('still line', await sample(host, s.click.sid, scenes));
    await s.readingOn(true);
    const end = performance.now() + READ_S * 1000;
    let peak: Sample | null = null;
    let last: Sample | null = null;
    while (performance.now() < end) {
      await sleep(Math.min(SAMPLE_MS, end - performance.now()));
      last = await sample(host, s.click.sid, scenes);
      if (!peak || last.pssMb > peak.pssMb) peak = last;
    }
    await s.readingOn(false);
    out.set('reading, peak', peak!);
    out.set('reading, end', last!);
    await sleep(10_000);
    out.set('still after', await sample(host, s.click.sid, scenes));
  } finally {
    await s.end();
  }
  return out;
}

function rows(samples: Map<string, Sample>): Row[] {
  const out: Row[] = [];
  const row = (figure: string, f: (x: Sample) => string) => out.push({ figure, values: Object.fromEntries([...samples].map(([col, x]) => [col, f(x)])) });
  const mb = (x: number) => num(x, 1, ' MB');
  row('session PSS (own + share)', (x) => mb(x.pssMb));
  row('  own processes (its renderers)', (x) => `${mb(x.ownMb)} (${x.ownProcs})`);
  row('  share of the browser\'s others', (x) => `${mb(x.sharedMb)} (/${x.sharers})`);
  row('renderer JS heap (used)', (x) => mb(x.heapMb));
  row('art rasters held (MB / count)', (x) => (x.art ? `${mb(x.art.heldBytes / MB)} / ${x.art.held}` : '–'));
  row('art budget', (x) => (x.art ? (Number.isFinite(x.art.budget) ? mb(x.art.budget / MB) : 'none') : '–'));
  row('art rasterised once / declared', (x) => (x.art ? `${x.art.rasterised} / ${x.art.total}` : '–'));
  row('art freed (evictions) / draw misses', (x) => (x.art ? `${x.art.evicted} / ${x.art.misses}` : '–'));
  row('lines read / scenes seen', (x) => `${x.lines} / ${x.scenes}`);
  if (DUMP) {
    const all = [...samples.values()];
    const names = [...new Set(all.flatMap((x) => Object.keys(x.allocators ?? {})))];
    const peak = (n: string) => Math.max(...all.map((x) => x.allocators?.[n] ?? 0));
    for (const n of names.filter((n) => peak(n) >= 0.5).sort((a, b) => peak(b) - peak(a))) row(`  renderer: ${n}`, (x) => mb(x.allocators?.[n] ?? 0));
  }
  return out;
}

/** `chromium` through a wrapper that takes BROWSER_UI_FEATURES out of its --disable-features (the `-webui` configuration). */
function chromiumWithWebUi(): string {
  const file = path.join(os.tmpdir(), 'yumecast-bench-chromium-webui.sh');
  const drop = BROWSER_UI_FEATURES.map((f) => `v=\${v//,${f},/,}`).join('; ');
  fs.writeFileSync(
    file,
    `#!/bin/bash\n# bench/session-memory.ts -webui: Chromium with the browser UI's WebUI renderers let back in\nargs=()\nfor a in "$@"; do\n  if [[ $a == --disable-features=* ]]; then v=",\${a#--disable-features=},"; ${drop}; v=\${v#,}; a="--disable-features=\${v%,}"; fi\n  args+=("$a")\ndone\nexec ${CHROMIUM_PATH} "\${args[@]}"\n`,
    { mode: 0o755 },
  );
  return file;
}

/** The runtime built with fetch-bytes.ts's worker unable to start (the `-fetch` configuration). */
async function runtimeFetchingInPage(): Promise<string> {
  const outDir = path.join(os.tmpdir(), 'yumecast-bench-runtime-fetch-in-page');
  await buildRuntime({ outDir, includeFixtures: true, quiet: true, sourcemap: false });
  const js = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? js(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []));
  let patched = 0;
  for (const f of js(outDir)) {
    const text = fs.readFileSync(f, 'utf8');
    const n = text.split('new Worker(').length - 1;
    if (n) fs.writeFileSync(f, text.replaceAll('new Worker(', '(()=>{throw new Error("bench: no worker")})('));
    patched += n;
  }
  if (patched !== 1) throw new Error(`-fetch: expected one \`new Worker(\` in the runtime's bundle, found ${patched}`);
  return outDir;
}

/** The --also configurations: `after` (its player side) with a bench-made setting. */
async function alsoConfigs(): Promise<PlayConfig[]> {
  const out: PlayConfig[] = [];
  for (const name of ALSO) {
    // the player's side as play-configs' `after` (the player's code and the page's flow as they are)
    const player = { jitterTarget: true, answerFirst: true, earlyJoin: true };
    if (name === '-webui') out.push({ name, hostEnv: { CHROMIUM_PATH: chromiumWithWebUi() }, ...player });
    else if (name === '-fetch') out.push({ name, hostEnv: { HOST_RUNTIME_DIR: await runtimeFetchingInPage() }, ...player });
    else throw new Error(`unknown --also configuration ${name} (-webui, -fetch)`);
  }
  return out;
}

async function main(): Promise<void> {
  const b = await setUp(`session memory (still ${STILL_S} s, reading ${READ_S} s)`, '-art,after', 3);
  b.configs.unshift(...(await alsoConfigs()));
  const figs = await eachConfig(b, { HOST_WARM_POOL: WARM ? '1' : '0', HOST_CAPACITY: '2' }, async (cfg, host) => {
    if (WARM) await host.agent.pool.whenWarm(1, 120_000);
    const samples = await measure(b, host);
    printTable(`[${cfg.name}] memory of one session`, rows(samples), [...samples.keys()]);
    return samples;
  });
  if (b.configs.length > 1) {
    for (const phase of phases) {
      const per = new Map([...figs].filter(([, m]) => m.has(phase)).map(([c, m]) => [c, m.get(phase)!]));
      printTables(`memory of one session, ${phase}`, rows(per), b.configs.filter((c) => per.has(c.name)));
    }
  }
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
