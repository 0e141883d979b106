/**
 * Before and after in the same run (issue 11): the configurations a play bench runs side by side,
 * and its tables. Each issue-11 lever is a host setting (server/host/config.ts) or the player's
 * own code: the receiver's jitter buffer and the answer's order (neutralised in the test player
 * page for "before", server/host/testing/player-probe.ts), and when the click joins (the play
 * page's flow, lib/session/playController.ts, replayed by bench/play-stack.ts):
 *
 *   lever    setting                          before      after (default)
 *   frames   HOST_FRAME_MODE                  steady      change
 *   browser  HOST_SESSIONS_PER_BROWSER        1           the host's default (several)
 *   codec    HOST_VIDEO_CODEC                 vp8         the host's default; also +vp9, +h264
 *   join     HOST_JOIN_DURING_START           0           1
 *   ahead    HOST_OFFER_AHEAD                 0 (the next 1: as soon as the signalling is open (empty
 *            player's connection made once   senders while the game starts)
 *            the stream is in)
 *   bitrate  HOST_BITRATE_FLOOR               0           1
 *   loops    HOST_RUNTIME_DIR                 a build without music loop files (NO_LOOPS_RUNTIME:
 *            every track synthesised live, then rendered in the page)   the build's loops
 *   jitter   player jitterBufferTarget        no-op       the player's code
   answer   player's answer                  sent after  sent before it is applied (the host's side of
                                              applied     ICE and DTLS starts sooner)
   early    the click's join                 after       while the game starts: get_token answers from
                                              `ready`     the host's slot on (docs/sessions.md)
 *   headroom HOST_ESTIMATE_HEADROOM           1           the publisher's (2.5: big frames paced out faster)
 *   playout  HOST_ZERO_PLAYOUT_DELAY          0           1 (every frame carries playout delay 0: the player
 *                                                         shows it at once)
 *   nice     HOST_WARM_NICE                   0           10 (a runtime warming for the pool yields the CPU)
 *   lean     HOST_PREWARM_FILES               1 (every    unset: the warm-up loads the fonts and prepares
 *            title's files loaded, images     its titles only
 *            decoded)
 *   fonts    HOST_START_FONTS                 all         first (a start on the title screen waits for its glyphs only)
 *   sfx      HOST_SFX_FILES                   0 (every    the build's rendered files (runtime/dist/sfx/)
 *                                             effect synthesised live)
 *   signal   HOST_SIGNAL_URLS                 none (every  the api's /v1/signal opened natively by the page
 *                                             message relayed through the agent)
 *   paint    HOST_PAINT_SCREEN                1 (the host  0: the canvas hidden from the host page's layout
 *            page shows its canvas: painted  (its track and screenshots unchanged)
 *            and composited on every draw)
 *   device   HOST_AUDIO_DEVICE                1 (each      0: the sound goes only to the stream (the
 *            page's AudioContext also plays  page's ?sink=none: no output device, rendered in
 *            to the output device, in 10 ms  21 ms blocks; the blocks are the gain)
 *            blocks)
 *   ptime    HOST_AUDIO_PTIME_MS              0 (the        60: Opus packets of 60 ms (a third of the
 *            browser's 20 ms packets)        packets)
 *   capture  HOST_CAPTURE                     canvas (the   frame: each draw written as a VideoFrame
 *            canvas's captureStream(0) +     of the canvas to a track generator
 *            requestFrame)
 *   sends    HOST_AUDIO_SENDS                 eager (the   lazy: built when a live sound first needs them
 *            chain's reverb and delay built  (a session on the build's loops and effects never
 *            with the context)               builds them: ~27 MB of its renderer)
 *   art      HOST_ART_BUDGET_MB               0 (every    the runtime's budget (runtime/src/art.ts)
 *                                             raster kept)
 *   pcm      HOST_MUSIC_LOOPS                 buffer      buffer (the default); pcm: the loop's 16-bit samples
 *                                                         in a worklet, an option (after+pcm)
 *   compiled HOST_NATIVE_COMPILE_AHEAD        0 (Ren'Py    a native title's game from its copy compiled
 *                                             parses its  ahead (server/host/native/compiled.ts)
 *                                             scripts)
 *   refill   HOST_REFILL_DELAY_MS             (option after+refill: the pool's replacement launched 60 s after
 *                                             a start, not 1.5 s: what a refill costs the session just started)
 *   light    HOST_RUNTIME_KIND                (option after+light: the light runtime, the engine in Node with a
 *                                             GStreamer sender and no Chromium page; docs/light-runtime.md);
 *                                             after+light16: the same with VP8 at speed −16 (HOST_LIGHT_CPU_USED)
 *
 * Configurations (--config a,b,… ; default before,after, or the bench's own: host-cpu-profile after,
 * play-sender -bitrate,after):
 *   before   every lever off;   after   the defaults (every lever on);
 *   +frames, +browser, +join, +ahead, +bitrate, +loops, +art, +headroom, +playout, +nice, +lean, +fonts, +sfx, +signal, +paint, +device, +ptime, +capture, +sends, +jitter, +answer, +early   before with that one lever on;   +vp9, +h264   before with that codec;
 *   -frames, -browser, -join, -ahead, -bitrate, -loops, -art, -headroom, -playout, -nice, -lean, -fonts, -sfx, -signal, -paint, -device, -ptime, -capture, -sends, -jitter, -answer, -early   after with that one lever off;
 *   after+pcm, after+vp9, …   after with that setting on (an option the defaults leave off);
 *   --levers frames,browser,…   = before + one "+lever" configuration each (one table per lever).
 */
import os from 'node:os';
import path from 'node:path';
import { arg } from './play-common';

/** The player's side of a configuration: true = the player's code / the page's flow as they are. */
export interface PlayerSide {
  /** The player's jitterBufferTarget as its code sets it (false: neutralised, as before). */
  jitterTarget: boolean;
  /** The answer sent before it is applied, as the code does (false: after, as before). */
  answerFirst: boolean;
  /** The click joins while the game starts (false: once the session is `ready`, as before). */
  earlyJoin: boolean;
}

export interface PlayConfig extends PlayerSide {
  name: string;
  /** Host environment (HOST_* settings) on top of the bench's own. */
  hostEnv: Record<string, string>;
}

const PLAYER_AFTER: PlayerSide = { jitterTarget: true, answerFirst: true, earlyJoin: true };
const PLAYER_BEFORE: PlayerSide = { jitterTarget: false, answerFirst: false, earlyJoin: false };

/** What a test player page is opened with (server/host/testing/player-probe.ts newPlayer). */
export const playerOpts = (c: PlayConfig) => ({ jitterTarget: c.jitterTarget, answerFirst: c.answerFirst });

/** The runtime built without its music loops (runtime/build-loops.ts), for `loops` off: play-stack builds it on first use. */
export const NO_LOOPS_RUNTIME = path.join(os.tmpdir(), 'yumecast-bench-runtime-no-loops');

const BEFORE_ENV: Record<string, string> = {
  HOST_FRAME_MODE: 'steady',
  HOST_SESSIONS_PER_BROWSER: '1',
  HOST_VIDEO_CODEC: 'vp8',
  HOST_JOIN_DURING_START: '0',
  HOST_OFFER_AHEAD: '0',
  HOST_BITRATE_FLOOR: '0',
  HOST_RUNTIME_DIR: NO_LOOPS_RUNTIME,
  HOST_ART_BUDGET_MB: '0',
  HOST_ESTIMATE_HEADROOM: '1',
  HOST_ZERO_PLAYOUT_DELAY: '0',
  HOST_WARM_NICE: '0',
  HOST_PREWARM_FILES: '1',
  HOST_START_FONTS: 'all',
  HOST_SFX_FILES: '0',
  HOST_SIGNAL_URLS: 'none',
  HOST_PAINT_SCREEN: '1',
  HOST_AUDIO_DEVICE: '1',
  HOST_AUDIO_PTIME_MS: '0',
  HOST_CAPTURE: 'canvas',
  HOST_AUDIO_SENDS: 'eager',
  HOST_NATIVE_COMPILE_AHEAD: '0',
};

/** Each lever: the before-settings it lifts (back to the host's default), or what it sets. */
const LEVERS: Record<string, { unset?: string[]; set?: Record<string, string>; player?: keyof PlayerSide }> = {
  frames: { unset: ['HOST_FRAME_MODE'] },
  browser: { unset: ['HOST_SESSIONS_PER_BROWSER'] },
  join: { unset: ['HOST_JOIN_DURING_START'] },
  ahead: { unset: ['HOST_OFFER_AHEAD'] },
  bitrate: { unset: ['HOST_BITRATE_FLOOR'] },
  loops: { unset: ['HOST_RUNTIME_DIR'] },
  art: { unset: ['HOST_ART_BUDGET_MB'] },
  headroom: { unset: ['HOST_ESTIMATE_HEADROOM'] },
  playout: { unset: ['HOST_ZERO_PLAYOUT_DELAY'] },
  pcm: { set: { HOST_MUSIC_LOOPS: 'pcm' } },
  refill: { set: { HOST_REFILL_DELAY_MS: '60000' } },
  nice: { unset: ['HOST_WARM_NICE'] },
  lean: { unset: ['HOST_PREWARM_FILES'] },
  fonts: { unset: ['HOST_START_FONTS'] },
  sfx: { unset: ['HOST_SFX_FILES'] },
  signal: { unset: ['HOST_SIGNAL_URLS'] },
  paint: { unset: ['HOST_PAINT_SCREEN'] },
  device: { unset: ['HOST_AUDIO_DEVICE'] },
  ptime: { unset: ['HOST_AUDIO_PTIME_MS'] },
  capture: { unset: ['HOST_CAPTURE'] },
  sends: { unset: ['HOST_AUDIO_SENDS'] },
  compiled: { unset: ['HOST_NATIVE_COMPILE_AHEAD'] },
  jitter: { player: 'jitterTarget' },
  answer: { player: 'answerFirst' },
  early: { player: 'earlyJoin' },
  vp9: { set: { HOST_VIDEO_CODEC: 'vp9' } },
  h264: { set: { HOST_VIDEO_CODEC: 'h264' } },
  av1: { set: { HOST_VIDEO_CODEC: 'av1' } },
  light: { set: { HOST_RUNTIME_KIND: 'light' } },
  light16: { set: { HOST_RUNTIME_KIND: 'light', HOST_LIGHT_CPU_USED: '-16' } },
};
const LEVER_ALIASES: Record<string, string[]> = { codec: ['vp9', 'h264', 'av1'] };

function config(name: string): PlayConfig {
  if (name === 'before') return { name, hostEnv: { ...BEFORE_ENV }, ...PLAYER_BEFORE };
  if (name === 'after') return { name, hostEnv: {}, ...PLAYER_AFTER };
  // after with an option on (a setting the defaults leave off)
  const option = name.startsWith('after+') ? LEVERS[name.slice('after+'.length)] : undefined;
  if (option?.set) return { name, hostEnv: { ...option.set }, ...PLAYER_AFTER };
  // after with one lever off (its before-setting): what that lever gives on top of the others
  const off = name.startsWith('-') ? LEVERS[name.slice(1)] : undefined;
  if (off) {
    const player = off.player ? { ...PLAYER_AFTER, [off.player]: false } : PLAYER_AFTER;
    return { name, hostEnv: Object.fromEntries((off.unset ?? []).map((k) => [k, BEFORE_ENV[k]])), ...player };
  }
  const lever = LEVERS[name.replace(/^\+/, '')];
  if (!name.startsWith('+') || !lever) throw new Error(`unknown configuration ${name} (before, after, ${Object.keys(LEVERS).map((l) => `+${l}`).join(', ')}, or -lever: after with it off)`);
  const hostEnv = { ...BEFORE_ENV, ...lever.set };
  for (const k of lever.unset ?? []) delete hostEnv[k];
  const player = lever.player ? { ...PLAYER_BEFORE, [lever.player]: true } : PLAYER_BEFORE;
  return { name, hostEnv, ...player };
}

/** The configurations asked for (--config / --levers, else `def`); `before` always comes first. */
export function playConfigs(def = 'before,after'): PlayConfig[] {
  const levers = arg('levers', '');
  const names = levers
    ? ['before', ...levers.split(',').flatMap((l) => LEVER_ALIASES[l.trim()] ?? [l.trim()]).map((l) => (l === 'after' ? l : `+${l}`))]
    : arg('config', def).split(',').map((s) => s.trim());
  const unique = [...new Set(names.filter(Boolean))];
  return unique.map(config);
}

export const describe = (c: PlayConfig): string =>
  `${c.name}: ${Object.entries(c.hostEnv).map(([k, v]) => `${k}=${v}`).join(' ') || 'host defaults'}; player jitterBufferTarget ${c.jitterTarget ? 'as the player sets it' : 'neutralised'}; answer sent ${c.answerFirst ? 'before' : 'after'} it is applied; joins ${c.earlyJoin ? 'while the game starts' : 'once ready'}`;

/** A figure per configuration (NaN or undefined = not measured). */
export type Row = { figure: string; values: Record<string, string> };

/** One table: a row per figure, a column per name (a configuration, or a phase of one). */
export function printTable(title: string, rows: Row[], names: string[]): void {
  const w0 = Math.max(6, ...rows.map((r) => r.figure.length));
  const ws = names.map((n) => Math.max(n.length, ...rows.map((r) => (r.values[n] ?? '–').length)));
  console.log('');
  console.log(title);
  console.log(`  ${'figure'.padEnd(w0)}  ${names.map((n, i) => n.padStart(ws[i])).join('  ')}`);
  for (const r of rows) console.log(`  ${r.figure.padEnd(w0)}  ${names.map((n, i) => (r.values[n] ?? '–').padStart(ws[i])).join('  ')}`);
}

/**
 * All configurations in one table, then one table per lever (before | +lever), and before | after
 * when both ran.
 */
export function printTables(what: string, rows: Row[], configs: PlayConfig[]): void {
  const names = configs.map((c) => c.name);
  printTable(`${what}: every configuration`, rows, names);
  if (names.length <= 2) return;
  for (const n of names.filter((x) => x !== 'before')) {
    if (!names.includes('before')) break;
    printTable(`${what}: ${n === 'after' ? 'before | after (every lever)' : `lever ${n.slice(1)} (before | ${n})`}`, rows, ['before', n]);
  }
}

export const ms = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '–');
export const pct = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(0)}%` : '–');
export const num = (x: number, digits = 0, unit = ''): string => (Number.isFinite(x) ? `${x.toFixed(digits)}${unit}` : '–');
