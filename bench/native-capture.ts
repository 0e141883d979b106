/**
 * The native runtime's two capture paths side by side (issue 15 asks to prototype both, keep the
 * better and say why; docs/renpy.md §4), on ONE Ren'Py session ("The Question", a cheap receiving
 * peer), a still story line and then reading on (Enter every 250 ms), in one run:
 *
 *   (a') what we built: the X helper (server/host/native/xhelper.py: XDamage + MIT-SHM grabs of the
 *        window's changed bands) → the runtime page in the shared Chromium → our publisher
 *        (lib/streaming). Measured: CPU of the X helper, Xvfb, Ren'Py, PulseAudio + parec, the
 *        session's own renderer and the rest of the host's browser processes; what the peer gets
 *        (fps, kbit/s);
 *   (b)  a GStreamer pipeline of the same display and sink encoding the same way (docs/renpy.md
 *        §4b): ximagesrc (use-damage=false, then =true) → 30 fps → videoconvert → vp8enc
 *        deadline=1 cpu-used=8 → fakesink, and pulsesrc game.monitor → opusenc → fakesink.
 *        Measured: gst-launch's CPU, the encoded frames and bytes per second (the video fakesink's
 *        buffers, from `-v`), and the pipeline's own latency (GST_TRACERS=latency: a buffer from
 *        ximagesrc to the video fakesink). It runs beside (a'), which cannot be paused without
 *        changing the host: Xvfb's CPU then serves both grabbers.
 * Prints figures; never fails on speed. Real api under with-services, else the fake api peer.
 *
 *   npx tsx bench/native-capture.ts [--window 10] [--settle 10] [--game the-question] [--fake]
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { startCheapPeers } from '../server/host/testing/cheap-peer-process';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import { listProcs, readProc } from '../server/host/procs';
import { arg, bound, cpuSeconds, cpuStart, finish, hostProcs, machine, machineBusy, median, onCleanup } from './play-common';
import { gameProcKind, gameProcsOf, intoNativeStory, nativeRunOf, unstick } from './play-native';
import { startPlayStack } from './play-stack';
import { pageOf } from '../server/host/testing/page-runtime';

const WINDOW_MS = Math.max(2, Number(arg('window', '10'))) * 1000;
const SETTLE_MS = Math.max(0, Number(arg('settle', '10'))) * 1000;
const GAME = arg('game', 'the-question');

type Figures = Record<string, string>;
const results: { path: string; scene: string; f: Figures }[] = [];
const pct = (x: number) => `${x.toFixed(1)}%`;

/** The session's own renderer(s) and the host's other browser processes, apart. */
function browserParts(host: TestAgent, sid: string) {
  const rt = pageOf(host.agent.sessions.get(sid)!.runtime);
  const own = () => new Set(rt.processShare(listProcs()).own.map((p) => p.pid));
  return {
    renderer: () => hostProcs(host).filter((p) => own().has(p.pid)),
    rest: () => hostProcs(host).filter((p) => !own().has(p.pid)),
  };
}

interface Gst {
  pid: number;
  /** Video buffers and bytes out of the encoder so far, and pipeline latencies (ms) seen. */
  frames: number;
  bytes: number;
  latencies: number[];
  stop(): Promise<void>;
}

/** gst-launch-1.0 on the session's display and sink, as docs/renpy.md §4b, the video fakesink verbose. */
function startGst(display: number, runDir: string, useDamage: boolean): Gst {
  const args = [
    '-v',
    'ximagesrc',
    `display-name=:${display}`,
    `use-damage=${useDamage}`,
    'startx=51',
    'starty=51',
    'endx=1330',
    'endy=770',
    '!',
    'video/x-raw,framerate=30/1',
    '!',
    'videoconvert',
    '!',
    'vp8enc',
    'deadline=1',
    'cpu-used=8',
    '!',
    'fakesink',
    'name=v',
    'silent=false',
    'pulsesrc',
    'device=game.monitor',
    '!',
    'opusenc',
    '!',
    'fakesink',
  ];
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: process.env.NODE_ENV,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: os.tmpdir(),
    XAUTHORITY: path.join(runDir, 'xauth'),
    PULSE_SERVER: `unix:${path.join(runDir, 'rt', 'pulse.sock')}`,
    GST_TRACERS: 'latency',
    GST_DEBUG: 'GST_TRACER:7',
    GST_DEBUG_NO_COLOR: '1',
  };
  const child = spawn('gst-launch-1.0', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const g: Gst = {
    pid: child.pid!,
    frames: 0,
    bytes: 0,
    latencies: [],
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await Promise.race([new Promise((r) => child.once('exit', r)), sleep(3000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
  };
  readline.createInterface({ input: child.stdout! }).on('line', (l) => {
    // "/GstPipeline:pipeline0/GstFakeSink:v: last-message = chain   ******* (v:sink) (1234 bytes, …"
    const m = /GstFakeSink:v: last-message = chain.*\((\d+) bytes/.exec(l);
    if (m) {
      g.frames++;
      g.bytes += Number(m[1]);
    }
  });
  readline.createInterface({ input: child.stderr! }).on('line', (l) => {
    // latency tracer: src-element=ximagesrc0 … sink-element=v … time=(guint64)12345678
    if (l.includes('latency,') && l.includes('ximagesrc') && /sink-element=\(string\)v\b/.test(l)) {
      const t = /time=\(guint64\)(\d+)/.exec(l);
      if (t) g.latencies.push(Number(t[1]) / 1e6);
    }
  });
  onCleanup(() => g.stop());
  return g;
}

async function main(): Promise<void> {
  bound(15 * 60_000);
  const stack = await startPlayStack();
  onCleanup(() => stack.close());
  const peers = await startCheapPeers();
  onCleanup(() => peers.close());
  console.log(`native capture bench: ${new Date().toISOString()}, api: ${stack.mode === 'api' ? 'real' : 'fake api peer'}, game ${GAME}, window ${WINDOW_MS / 1000} s`);
  console.log(`machine: ${machine()}; CPU busy before the run (3 s): ${(await machineBusy()).toFixed(0)}% of all cores`);
  const host = await stack.startHost({ HOST_WARM_POOL: '0', HOST_CAPACITY: '2' });
  onCleanup(() => host.stop());
  const c = await stack.click(host, GAME, { poll: 'fast' });
  const peer = await peers.join(c.signal.url, c.signal.token);
  try {
    await intoNativeStory(host, c.sid);
    const run = (await nativeRunOf(host, c.sid))!;
    const game = await gameProcsOf(host, c.sid);
    const kind = (k: string) => () => game().filter((p) => gameProcKind(p) === k);
    const browser = browserParts(host, c.sid);
    const window = async (pathName: string, scene: string, gst: Gst | null): Promise<void> => {
      const meters: [string, () => number][] = [
        ["Ren'Py", cpuStart(kind('renpy'))],
        ['Xvfb', cpuStart(kind('xvfb'))],
        ['pulseaudio + parec', cpuStart(kind('pulse'))],
        ['X helper', cpuStart(kind('xhelper'))],
        ['session renderer', cpuStart(browser.renderer)],
        ['other browser processes', cpuStart(browser.rest)],
      ];
      const gstCpu0 = gst ? (cpuSeconds(gst.pid) ?? 0) : 0;
      const gst0 = gst ? { frames: gst.frames, bytes: gst.bytes, lat: gst.latencies.length } : null;
      const a = await peers.stats(peer);
      const t0 = performance.now();
      await sleep(WINDOW_MS);
      const dt = (performance.now() - t0) / 1000;
      const b = await peers.stats(peer);
      const f: Figures = {};
      for (const [name, stop] of meters) f[`${name} CPU`] = pct(stop());
      const pdt = Math.max(1, b.at - a.at);
      f['peer receives (a\')'] = `${(((b.frames - a.frames) * 1000) / pdt).toFixed(1)} fps, ${(((b.bytes - a.bytes) * 8) / pdt).toFixed(0)} kbit/s`;
      if (gst && gst0) {
        f['gst-launch CPU'] = pct((((cpuSeconds(gst.pid) ?? gstCpu0) - gstCpu0) / dt) * 100);
        f['gst encodes'] = `${((gst.frames - gst0.frames) / dt).toFixed(1)} fps, ${(((gst.bytes - gst0.bytes) * 8) / dt / 1000).toFixed(0)} kbit/s`;
        const lat = gst.latencies.slice(gst0.lat);
        f['gst pipeline latency (ximagesrc → video fakesink)'] = lat.length ? `median ${median(lat).toFixed(1)} ms (${lat.length} buffers)` : 'none traced';
      }
      f.load = os.loadavg().map((x) => x.toFixed(2)).join('/');
      results.push({ path: pathName, scene, f });
      console.log(`  [${pathName}] ${scene}: ${Object.entries(f).map(([k, v]) => `${k} ${v}`).join('; ')}`);
    };
    const scenes = async (pathName: string, gst: Gst | null) => {
      await sleep(SETTLE_MS);
      await window(pathName, 'still line', gst);
      await peers.keysEvery(peer, ['Enter'], 250);
      const stop = unstick(host, c.sid);
      await sleep(1000);
      await window(pathName, 'reading on', gst);
      await peers.keysEvery(peer, [], 0);
      await stop();
    };
    await scenes("(a') X helper + runtime page", null);
    for (const useDamage of [false, true]) {
      const gst = startGst(run.display, run.runDir, useDamage);
      await sleep(2000);
      if (readProc(gst.pid) === null) throw new Error('gst-launch-1.0 exited at once');
      await scenes(`(b) gst-launch use-damage=${useDamage}, (a') still running`, gst);
      await gst.stop();
    }
  } finally {
    await peers.leave(peer).catch(() => undefined);
    await c.end().catch(() => undefined);
  }
  console.log('\nnative capture: every window');
  for (const r of results) console.log(`  ${r.path} | ${r.scene}\n${Object.entries(r.f).map(([k, v]) => `      ${k}: ${v}`).join('\n')}`);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
