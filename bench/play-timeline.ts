/**
 * Where click → first decoded frame goes, for bench/play-latency.ts and bench/play-join.ts: one
 * warm or cold start in the page's flow (clickToFirstFrame) cut into consecutive
 * segments that add up to the run's total, and the table rows of their medians.
 *
 * One clock: Date.now() ms, the system clock every process on the machine reads (the bench, the
 * host agent in the bench's own process, the player's Chromium). The bench's performance.now()
 * times (the click, `ready`, the frame's notice) are converted when they are read; the player
 * page's times come from its probe's timeline (server/host/testing/player-probe.ts
 * playerTimeline), already in Date.now() ms; the host's from its session (createdAt, a Date.now();
 * startMs; the bridge's ready.beginMs and ready.startMs, durations). No hook in the host's page.
 *
 * --timeline prints each run's whole timeline (ms from the click) as it goes.
 *
 * Segments, in order (each from the end of the one before):
 *   click → host          the start request reaching the host (the real api: session/all + start + its call)
 *   host: runtime         pool acquire, attach, the bridge call (session startMs − ready.beginMs)
 *   host: game start      yumecast.start() (ready.startMs)
 *   host: publish         the rest of begin(): publisher, capture, signalling open (beginMs − startMs)
 *   host ready → player   the api's report, the page's status poll, get_token
 *   → signalling open     join: the player's socket to the signalling relay opens
 *   → peer-joined         the relay tells the player the host is there
 *   → offer               the host's offer received (the host offers on its own peer-joined)
 *   → answer sent         setRemoteDescription, createAnswer, setLocalDescription
 *   → ICE connected       the answer to the host, ICE checks
 *   → connected           DTLS
 *   → first frame         the first presented frame (negative: the page fired `connected` after it)
 *   → bench notified      the probe's answer reaching the bench (the total is measured there)
 */
import type { Page } from 'playwright-core';
import type { TestAgent } from '../server/host/testing/harness';
import { firstFrame, playerTimeline, type PlayerBrowser, type TimelineEvent } from '../server/host/testing/player-probe';
import { flag, median } from './play-common';
import { ms, playerOpts, type PlayConfig, type Row } from './play-configs';
import type { Click, PlayStack } from './play-stack';

export const SEGMENTS = [
  ['toHost', 'click → the host has the start request'],
  ['runtime', 'host: runtime from the pool, bridge call'],
  ['engine', 'host: game start (yumecast.start)'],
  ['publish', 'host: publisher, capture, signalling open'],
  ['seen', 'host ready → player knows (report, poll, token)'],
  ['open', '→ player signalling open'],
  ['joined', '→ peer-joined received'],
  ['offer', '→ offer received'],
  ['answer', '→ answer sent'],
  ['ice', '→ ICE connected'],
  ['connected', '→ connected (DTLS)'],
  ['frame', '→ first frame presented'],
  ['notice', '→ the bench notified'],
] as const;
export type SegmentKey = (typeof SEGMENTS)[number][0];
export type Breakdown = Record<SegmentKey, number>;

/** A performance.now() time of this process as Date.now() ms. */
export const wall = (perfT: number): number => Date.now() - (performance.now() - perfT);

/** The first event of one of `evs` at or after `from` (NaN if none). */
function first(tl: TimelineEvent[], evs: string[], from = -Infinity): number {
  return tl.find((e) => evs.includes(e.ev) && e.at >= from)?.at ?? NaN;
}

/**
 * One run's segments. Call after the first frame (`noticedAt`: performance.now() when the bench
 * had it) and before the session ends (its host record is read).
 */
export async function breakdown(click: Click, host: TestAgent, page: Page, noticedAt: number): Promise<Breakdown> {
  const clickAt = wall(click.t0);
  const readyAt = wall(click.readyAt);
  const noticed = wall(noticedAt);
  const s = host.agent.sessions.get(click.sid);
  // a native title's page may present its first frame before the host has recorded `ready`: wait for it a little
  for (const end = Date.now() + 3000; s && s.startMs === null && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
  const hostReadyAt = s && s.startMs !== null ? s.createdAt + s.startMs : NaN;
  const beginMs = s?.ready?.beginMs ?? NaN;
  const engineMs = s?.ready?.startMs ?? NaN;
  // the page may report `connected` after the first frame: wait for it a little
  let tl = await playerTimeline(page);
  for (const end = Date.now() + 2000; !tl.some((e) => e.ev === 'pc:connection:connected') && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 20));
    tl = await playerTimeline(page);
  }
  // the player's events after `ready` (1 ms: Date.now()'s resolution in the page)
  const open = first(tl, ['ws:open'], readyAt - 1);
  const joined = first(tl, ['rx:peer-joined'], open);
  const offer = first(tl, ['rx:offer'], open);
  const answer = first(tl, ['tx:answer'], offer);
  const ice = first(tl, ['pc:ice:connected', 'pc:ice:completed'], offer);
  const connected = first(tl, ['pc:connection:connected'], offer);
  const frame = first(tl, ['video:first-frame'], readyAt - 1);
  if (flag('timeline')) {
    // the whole run, ms from the click: the bench's and the host's marks among the page's events
    const marks: TimelineEvent[] = [
      { at: s?.createdAt ?? NaN, ev: 'host:start-request' },
      { at: hostReadyAt, ev: 'host:ready' },
      { at: readyAt, ev: 'bench:ready-known' },
      { at: noticed, ev: 'bench:first-frame-noticed' },
      ...tl.filter((e) => e.at >= readyAt - 1),
    ].sort((a, b) => a.at - b.at);
    const name = (e: TimelineEvent) => `${e.ev}${e.n ? `#${e.n}` : ''}${e.detail ? `(${e.detail})` : ''}`;
    console.log(`    ${click.sid}: ${marks.map((e) => `${name(e)} ${(e.at - clickAt).toFixed(0)}`).join(', ')}`);
  }
  return {
    toHost: (s?.createdAt ?? NaN) - clickAt,
    runtime: (s?.startMs ?? NaN) - beginMs,
    engine: engineMs,
    publish: beginMs - engineMs,
    seen: readyAt - hostReadyAt,
    open: open - readyAt,
    joined: joined - open,
    offer: offer - joined,
    answer: answer - offer,
    ice: ice - answer,
    connected: connected - ice,
    frame: frame - connected,
    notice: noticed - frame,
  };
}

/** The segments of several runs, per segment. */
export type Breakdowns = Record<SegmentKey, number[]>;
export const noBreakdowns = (): Breakdowns => Object.fromEntries(SEGMENTS.map(([k]) => [k, []])) as unknown as Breakdowns;
export function addBreakdown(into: Breakdowns, b: Breakdown): void {
  for (const [k] of SEGMENTS) into[k].push(b[k]);
}

/** One line per run: its segments in order (for the bench's log). */
export function describeRuns(b: Breakdowns): string[] {
  const n = b.toHost.length;
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(SEGMENTS.map(([k]) => (Number.isFinite(b[k][i]) ? b[k][i].toFixed(0) : '–')).join(' | '));
  return out;
}

/** The legend of describeRuns' columns. */
export const runColumns = (): string => SEGMENTS.map(([k]) => k).join(' | ');

/** Table rows: each segment's median per configuration (under the click → first frame rows). */
export function segmentRows<F>(names: string[], figs: Map<string, F>, pick: (f: F) => Breakdowns | undefined): Row[] {
  return SEGMENTS.map(([k, label]) => ({
    figure: `  ${label}`,
    values: Object.fromEntries(names.map((n) => {
      const b = figs.has(n) ? pick(figs.get(n)!) : undefined;
      return [n, b && b[k].length ? ms(median(b[k])) : '–'];
    })),
  }));
}

/** The click, in the page's flow, until the player's first presented frame, and where the time went. */
export async function clickToFirstFrame(stack: PlayStack, host: TestAgent, players: PlayerBrowser, cfg: PlayConfig, game: string): Promise<{ ready: number; frame: number; segments: Breakdown }> {
  const p = await players.newPlayer(playerOpts(cfg));
  try {
    const click = await stack.click(host, game, { early: cfg.earlyJoin });
    const frame = firstFrame(p.page, 30_000);
    await click.join(p);
    const at = await frame;
    const noticed = performance.now();
    const segments = at === null ? null : await breakdown(click, host, p.page, noticed);
    await click.end();
    if (at === null || !segments) throw new Error(`${click.sid}: no frame within 30 s`);
    return { ready: click.readyAt - click.t0, frame: noticed - click.t0, segments };
  } finally {
    await p.close();
  }
}
