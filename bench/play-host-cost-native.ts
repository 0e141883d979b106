/**
 * bench/play-host-cost.ts's scenes on a native (Ren'Py) title (issue 15), one session with a
 * cheap receiving peer: the title screen still, a still story line, reading on (Enter every
 * 250 ms from the peer; at a menu or the ending the first choice / スタート clicked:
 * bench/play-native.ts `unstick`). Why apart from the web scenes: the scenes are reached by
 * watching pictures, not the engine's state, and the host's cost has two halves here — the
 * runtime page in the shared Chromium (hostProcs: every process of the host's browsers) and the
 * game's own processes (its cgroup: Ren'Py, Xvfb, PulseAudio + parec, the X helper), both
 * counted in the host's column and also printed part by part (CPU % of a core, PSS MB). The
 * runtime page's PSS is the session's share of its browser (server/host/procs.ts
 * sessionFootprint), the game's processes are wholly the session's.
 */
import type { CheapPeers } from '../server/host/testing/cheap-peer-process';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import { listProcs, readProc, type ProcInfo } from '../server/host/procs';
import { cpuStart, hostProcs, pssMb, pssPerSessionMb } from './play-common';
import { GAME_PROC_KINDS, gameProcKind, gameProcsOf, intoNativeStory, intoNativeTitle, unstick } from './play-native';
import type { Scene } from './play-host-cost';
import type { PlayStack } from './play-stack';

const PART_LABEL: Record<string, string> = { page: 'runtime page (browser share)', renpy: "Ren'Py", xvfb: 'Xvfb', pulse: 'pulseaudio + parec', xhelper: 'X helper', other: 'other game processes' };

export async function nativeScenes(
  stack: PlayStack,
  host: TestAgent,
  peers: CheapPeers,
  game: string,
  o: { windowMs: number; settleMs: number; log: (s: string) => void },
): Promise<Scene[]> {
  const out: Scene[] = [];
  await sleep(1000);
  const c = await stack.click(host, game, { poll: 'fast' });
  const peer = await peers.join(c.signal.url, c.signal.token);
  try {
    const gameProcs = await gameProcsOf(host, c.sid);
    const byKind = (kind: string) => () => (kind === 'page' ? hostProcs(host) : gameProcs().filter((p) => gameProcKind(p) === kind));
    const measure = async (scene: string): Promise<void> => {
      const parts = ['page', ...GAME_PROC_KINDS];
      const meters = parts.map((k) => cpuStart(byKind(k)));
      const peersCpu = cpuStart(() => [readProc(peers.pid)].filter((p): p is ProcInfo => p !== null));
      const a = await peers.stats(peer);
      await sleep(o.windowMs);
      const b = await peers.stats(peer);
      const cpu: Record<string, number> = {};
      parts.forEach((k, i) => (cpu[PART_LABEL[k]] = meters[i]()));
      const all = listProcs();
      const pss: Record<string, number> = { [PART_LABEL.page]: pssPerSessionMb(host) };
      for (const k of GAME_PROC_KINDS) pss[PART_LABEL[k]] = pssMb(gameProcs(all).filter((p) => gameProcKind(p) === k));
      if (!cpu[PART_LABEL.other] && !pss[PART_LABEL.other]) {
        delete cpu[PART_LABEL.other];
        delete pss[PART_LABEL.other];
      }
      const dt = Math.max(1, b.at - a.at);
      const sum = (r: Record<string, number>) => Object.values(r).reduce((x, y) => x + y, 0);
      out.push({ scene, hostCpu: sum(cpu), peersCpu: peersCpu(), pss: sum(pss), fps: ((b.frames - a.frames) * 1000) / dt, kbps: ((b.bytes - a.bytes) * 8) / dt, audioKbps: ((b.audioBytes - a.audioBytes) * 8) / dt, codec: b.codec, split: { cpu, pss } });
      o.log(`  ${scene}: ${Object.keys(cpu).map((k) => `${k} ${cpu[k].toFixed(1)}% / ${pss[k].toFixed(0)} MB`).join(', ')}`);
    };
    await intoNativeTitle(host, c.sid);
    await sleep(o.settleMs);
    await measure(`title screen, still (${game})`);
    await intoNativeStory(host, c.sid);
    await sleep(o.settleMs);
    await measure(`static line (${game})`);
    await peers.keysEvery(peer, ['Enter'], 250);
    const stop = unstick(host, c.sid);
    await sleep(1000);
    await measure(`reading on: Enter every 250 ms (${game})`);
    await peers.keysEvery(peer, [], 0);
    o.log(`  (reading on: ${await stop()} clicks on a menu's first choice or スタート)`);
  } finally {
    await peers.leave(peer).catch(() => undefined);
    await c.end();
  }
  return out;
}
