/**
 * Runs one play of one title in the browser (spec section 4, "Game session flow"):
 * start at the player's saved video quality (or resume the user's live session for this title)
 * → poll the status → get_token → join the stream. The token is fetched as soon as a host has the
 * session (`allocating`/`starting`, not only `ready`): the connection is made while the game
 * starts, and the status is polled on until `ready` (issue 11; docs/sessions.md). The play counts
 * as `playing` once the page presents the first video frame (framePresented), so the progress
 * steps stay on screen until there is a picture. Then it keeps the play alive: reconnects after a
 * drop (60 s), sends WebRTC stats every 10 s, watches the host through the status, closes after
 * 4 minutes in the background (those timers: playTimers.ts), and sends the beacon when the player
 * leaves. What it hands the page (its snapshot) is typed in playTypes.ts. The player's chosen
 * video quality is sent again whenever a message channel opens (the first connection, a resumed
 * session, each reconnect), so the host's encoder always matches the menu (issue 13). The React
 * page only renders its snapshots; the stats overlay reads `liveStats()` while it is shown.
 */
import { track } from '@/lib/analytics';
import type { CollectBeaconBody, CollectWebrtcStatsBody } from '@/lib/api-types/schemas/sessions';
import { apiBeacon, apiRequest } from '@/lib/api/client';
import { forceClose, getSessionAll, getSessionStatus, getSessionToken, SessionError, startGame } from '@/lib/api/sessions';
import { loadPlayerConfig } from '@/lib/storage/playerConfig';
import { createSubscriber } from '@/lib/streaming';
import { playerMessage, type HostMessage, type PlayerMessage, type QualityLevel } from '@/lib/streaming/messages';
import type { ConnectionState, StreamSubscriber } from '@/lib/streaming/types';
import { failureOf, type PlayFailure, type PlayPhase } from './playMessages';
import { statusPollDelay } from './pollDelay';
import { PlayTimers, sleep } from './playTimers';
import { FIRST_SNAPSHOT, STATS_PING_MS, type PlayCallbacks, type PlaySnapshot, type PlayStatsReading } from './playTypes';

export type { PlayCallbacks, PlaySnapshot, PlayStatsReading } from './playTypes';
export const RECONNECT_WINDOW_MS = 60_000;
const STREAM_TIMEOUT_MS = 20_000;
/** After a `bye error`, how long the api gets to record the host's reason before we fall back. */
const BYE_REASON_WAIT_MS = 3_000;

export class PlayController {
  private snap: PlaySnapshot = { ...FIRST_SNAPSHOT };
  private abort = new AbortController();
  private subscriber: StreamSubscriber | null = null;
  /** The loops, the idle countdown and the background close (playTimers.ts). */
  private readonly timers = new PlayTimers();
  private startedAt = Date.now();
  private reconnectSince: number | null = null;
  private ended = false;
  /** The player left on purpose (Exit, or Cancel while starting): the server session is closed too. */
  private exited = false;
  /** The video has been on screen: failures from now on are told as a stopped game, not a failed start. */
  private played = false;
  /** The status has said `ready` (or `playing`): the game runs on the host. */
  private hostReady = false;
  /** Where the connection is (shown once the host is ready). */
  private connecting: 'token' | 'connecting' = 'token';
  /** Resolves the current connection's wait for its first presented frame. */
  private presented: (() => void) | null = null;
  /** The video quality the player chose (the saved one until the menu changes it). */
  private quality: QualityLevel | null = null;
  /** The current connection's channel has been told `quality`. */
  private qualitySent = false;
  private lastPing = 0;

  constructor(
    readonly gameId: string,
    private readonly cb: PlayCallbacks,
  ) {}

  get snapshot(): PlaySnapshot {
    return this.snap;
  }

  private set(patch: Partial<PlaySnapshot>) {
    if (patch.step === 'playing') this.played = true;
    this.snap = { ...this.snap, ...patch };
    this.cb.onChange(this.snap);
  }

  private get phase(): PlayPhase {
    return this.played ? 'play' : 'start';
  }

  private fail(failure: PlayFailure) {
    if (this.ended) return;
    this.ended = true;
    this.stopLoops();
    this.subscriber?.leave();
    this.subscriber = null;
    this.set({ failure, stream: null, idleSecondsLeft: null, reconnecting: false });
  }

  /** Starts the whole flow; resolves when the video plays or the flow failed. */
  async run(): Promise<void> {
    const signal = this.abort.signal;
    try {
      this.set({ step: 'start' });
      track('game_start', { gameId: this.gameId });
      const sessionId = await this.startOrResume();
      // cancelled while the start call was on its way: the session it made is closed, not left queued
      if (this.exited) {
        await forceClose(sessionId).catch(() => undefined);
        return;
      }
      this.set({ sessionId });
      const since = Date.now();
      // past the queue: a host has the session; connect while it starts, polling on until `ready`
      await this.pollStatus(sessionId, signal, since, (state) => state !== 'queued');
      const ready = this.hostReady ? Promise.resolve() : this.pollStatus(sessionId, signal, since, (state) => state === 'ready' || state === 'playing');
      ready.catch(() => undefined);
      await this.connect(sessionId, signal, ready);
      this.startLoops(sessionId);
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof SessionError) {
        if (e.code === 'instance_limit') track('instance_limit', { gameId: this.gameId });
        this.fail(failureOf(e.code, this.phase));
      } else if (e instanceof PlayFailureError) {
        this.fail(e.failure);
      } else {
        this.fail('unknown');
      }
    }
  }

  /**
   * The user's live session for this title (a reload, a second tab) is resumed, not refused. A new
   * one starts at the quality the player saved (the menu shows it), not the host's default.
   */
  private async startOrResume(): Promise<string> {
    const live = await getSessionAll();
    const mine = live.find((s) => s.gameId === this.gameId);
    return mine ? mine.sessionId : startGame(this.gameId, this.chosenQuality());
  }

  /**
   * Polls the status (lib/session/pollDelay.ts) until `done(state)`; a failed or ended session
   * throws. Shows the queue position while queued, `starting` while the host starts the game.
   */
  private async pollStatus(sessionId: string, signal: AbortSignal, since: number, done: (state: string) => boolean): Promise<void> {
    for (;;) {
      const s = await getSessionStatus(sessionId);
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
      if (s.state === 'failed') throw new PlayFailureError(failureOf(s.failureReason, this.phase));
      if (s.state === 'closed' || s.state === 'closing') throw new PlayFailureError('session_closed');
      if (s.state === 'ready' || s.state === 'playing') this.hostReady = true;
      if (s.state === 'queued') this.set({ step: 'queue', queuePosition: s.queuePosition });
      // The picture can come before the api hears the game is ready (the join overlaps the start):
      // once playing, a poll still saying `starting` must not put the progress back over the game.
      else if (!this.hostReady && this.snap.step !== 'playing') this.set({ step: 'starting', queuePosition: null });
      if (done(s.state)) return;
      await sleep(statusPollDelay(s.state, Date.now() - since), signal);
    }
  }

  /** A step of the connection; while the game still starts on the host, `starting` stays shown. */
  private connectStep(step: 'token' | 'connecting'): void {
    this.connecting = step;
    if (this.hostReady) this.set({ step });
  }

  /** The page presented the current stream's first video frame (PlayerView calls this). */
  framePresented(): void {
    this.presented?.();
  }

  /**
   * Token, join, and the first presented frame. `ready`: resolves when the host reports the game
   * running (the stream's timeout counts from then: a cold start may take longer than it), rejects
   * when the session failed or ended meanwhile.
   */
  private async connect(sessionId: string, signal: AbortSignal, ready: Promise<void> = Promise.resolve()): Promise<void> {
    this.connectStep('token');
    const token = await getSessionToken(sessionId);
    if (signal.aborted) return;
    this.connectStep('connecting');
    if (typeof RTCPeerConnection === 'undefined') throw new PlayFailureError('unsupported');
    // Missing provider credentials are refused here, before any SDK loads.
    const subscriber = await createSubscriber(token.provider, token).catch(() => {
      throw new PlayFailureError('unsupported');
    });
    this.subscriber?.leave();
    this.subscriber = subscriber;
    this.qualitySent = false;
    const gotVideo = new Promise<void>((resolve, reject) => {
      let t: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      const fail = (e: unknown) => {
        settled = true;
        clearTimeout(t);
        reject(e);
      };
      ready.then(() => {
        // the picture may have come first: then no step to show and no timeout to arm
        if (settled) return;
        if (this.snap.step === 'starting') this.set({ step: this.connecting });
        t = setTimeout(() => fail(new PlayFailureError('stream_failed')), STREAM_TIMEOUT_MS);
      }, fail);
      this.presented = () => {
        this.presented = null;
        settled = true;
        clearTimeout(t);
        resolve();
      };
      subscriber
        .join(token, {
          onStream: (stream) => {
            if (stream.getVideoTracks().length === 0) return;
            // shown in the page's <video>; playing once it presents a frame (framePresented)
            this.set({ stream });
          },
          onMessage: (m) => this.onHostMessage(m),
          onState: (state) => this.onConnection(state),
        })
        // A join that fails outright (refused token, provider unreachable) fails now, not at the timeout.
        .catch(() => fail(new PlayFailureError('stream_failed')));
    });
    await gotVideo;
    this.reconnectSince = null;
    this.set({ step: 'playing', reconnecting: false });
    this.applyQuality();
  }

  /** The player's choice: what the menu set in this play, else the saved one. */
  private chosenQuality(): QualityLevel {
    return (this.quality ??= loadPlayerConfig().videoQuality);
  }

  /**
   * Sends the chosen quality on the current connection's channel, once per channel: a new
   * session starts at it, but a resumed one (a reload) and a host that published again after a
   * drop would otherwise keep whatever they had. Called when the host says `ready` (its channel
   * opened), when the connection is up and at the first frame; a send before the channel is open
   * fails and is tried again at the next of these.
   */
  private applyQuality(): void {
    if (this.qualitySent || this.ended) return;
    this.qualitySent = this.send({ type: 'quality', level: this.chosenQuality() });
  }

  private onConnection(state: ConnectionState) {
    this.set({ connection: state });
    if (this.ended || this.snap.step !== 'playing') return;
    if (state === 'connected') {
      this.reconnectSince = null;
      this.set({ reconnecting: false });
      this.applyQuality();
    } else if (state === 'reconnecting' || state === 'failed' || state === 'disconnected') {
      void this.reconnect();
    } else if (state === 'closed') {
      void this.checkHost();
    }
  }

  /** After a drop: wait briefly for ICE to recover, then join again with a fresh token, for 60 s. */
  private async reconnect(): Promise<void> {
    if (this.reconnectSince !== null) return;
    this.reconnectSince = Date.now();
    this.set({ reconnecting: true });
    const sessionId = this.snap.sessionId!;
    while (!this.ended && this.reconnectSince !== null) {
      if (Date.now() - this.reconnectSince > RECONNECT_WINDOW_MS) return this.fail('network_lost');
      try {
        await sleep(2000, this.abort.signal);
        if (this.snap.connection === 'connected') break;
        const status = await getSessionStatus(sessionId);
        if (status.state === 'failed') return this.fail(failureOf(status.failureReason, this.phase));
        if (status.state === 'closed' || status.state === 'closing') return this.fail('session_closed');
        await this.connect(sessionId, this.abort.signal);
        break;
      } catch (e) {
        if (this.abort.signal.aborted) return;
        if (e instanceof SessionError && e.code === 'session_not_found') return this.fail('session_closed');
      }
    }
    this.reconnectSince = null;
    this.set({ reconnecting: false });
  }

  private onHostMessage(m: HostMessage) {
    this.cb.onHostMessage?.(m);
    switch (m.type) {
      case 'ready':
        // a (new) channel opened: the host's side may have been made afresh
        this.qualitySent = false;
        this.applyQuality();
        break;
      case 'pong':
        this.set({ rttMs: Math.max(0, performance.now() - m.t) });
        break;
      case 'idle-warning':
        this.timers.idleCountdown(m.secondsLeft, (idleSecondsLeft) => this.set({ idleSecondsLeft }));
        break;
      case 'bye':
        // `error` says only that something failed on the host: the api has the reason.
        if (m.reason === 'error') void this.failWithServerReason();
        else this.fail(failureOf(m.reason, this.phase));
        break;
      default:
        break;
    }
  }

  /** Sends a message to the game; any input also clears the idle warning. */
  send(body: Parameters<typeof playerMessage>[0]): boolean {
    const ok = this.subscriber?.send(playerMessage(body) as PlayerMessage) ?? false;
    if (ok && (body.type === 'pointer' || body.type === 'key' || body.type === 'wheel') && this.snap.idleSecondsLeft !== null) {
      this.timers.stopIdle();
      this.set({ idleSecondsLeft: null });
    }
    return ok;
  }

  setQuality(level: QualityLevel) {
    track('video_quality', { gameId: this.gameId, quality: level });
    this.quality = level;
    this.qualitySent = this.send({ type: 'quality', level });
  }

  /**
   * One reading for the stats overlay: the provider's stats and the last ping's round trip. The
   * overlay calls it about once a second while shown, and each call sends a ping (at most one per
   * STATS_PING_MS), so the ping figure is fresh too; hidden, nothing is read and pings stay at 5 s.
   */
  async liveStats(): Promise<PlayStatsReading> {
    if (performance.now() - this.lastPing >= STATS_PING_MS) this.ping();
    const receiver = await (this.subscriber?.liveStats().catch(() => null) ?? Promise.resolve(null));
    return { receiver, pingMs: this.snap.rttMs };
  }

  private ping(): void {
    this.lastPing = performance.now();
    this.send({ type: 'ping', t: this.lastPing });
  }

  requestScreenshot(): string {
    const requestId = `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    this.send({ type: 'screenshot', requestId });
    return requestId;
  }

  private startLoops(sessionId: string) {
    this.timers.startLoops({ stats: () => void this.sendStats(sessionId), watchHost: () => void this.checkHost(), ping: () => this.ping() });
  }

  private stopLoops() {
    this.timers.stopAll();
  }

  private async sendStats(sessionId: string) {
    const stats = await this.subscriber?.stats().catch(() => null);
    if (!stats) return;
    const body: CollectWebrtcStatsBody = { sessionId, gameId: this.gameId, stats };
    await apiRequest('/v1/collect/stats/webrtc', { method: 'POST', body }).catch(() => undefined);
  }

  /** The host is watched through the api: a lost host shows up as a failed session. */
  private async checkHost() {
    if (this.ended || !this.snap.sessionId) return;
    const s = await getSessionStatus(this.snap.sessionId).catch(() => null);
    if (!s) return;
    if (s.state === 'failed') this.fail(failureOf(s.failureReason, this.phase));
    else if (s.state === 'closed') this.fail('session_closed');
  }

  /**
   * The host said `bye error`: stop the stream now, then show the reason the host reports to the
   * api (a runtime crash, a failed start…), polled for a few seconds; a generic message if none.
   */
  private async failWithServerReason() {
    if (this.ended) return;
    const id = this.snap.sessionId;
    const phase = this.phase;
    this.subscriber?.leave();
    this.subscriber = null;
    const until = Date.now() + BYE_REASON_WAIT_MS;
    while (id && !this.ended) {
      const s = await getSessionStatus(id).catch(() => null);
      if (s?.state === 'failed') return this.fail(failureOf(s.failureReason, phase));
      if (s?.state === 'closed') return this.fail('session_closed');
      if (Date.now() >= until) break;
      await sleep(500, this.abort.signal).catch(() => undefined);
    }
    this.fail(phase === 'play' ? 'play_interrupted' : 'unknown');
  }

  /** Page visibility: 4 minutes in the background closes the session (DESIGN §4). */
  setHidden(hidden: boolean) {
    this.timers.setBackground(hidden && !!this.snap.sessionId && !this.ended, () => void this.exit().then(() => this.fail('background_timeout')));
  }

  /** The beacon of spec section 7, sent when the player leaves the page: `elapsed` in milliseconds. */
  sendBeacon() {
    if (!this.snap.sessionId) return;
    const body: CollectBeaconBody = { sessionId: this.snap.sessionId, gameId: this.gameId, elapsed: Math.max(0, Date.now() - this.startedAt) };
    apiBeacon('/collect', body);
  }

  /**
   * Exit (or Cancel while starting or queued): force_close the session on the server, then stop
   * everything here. A start call still on its way closes its session when it answers (run()).
   */
  async exit(): Promise<void> {
    this.exited = true;
    const id = this.snap.sessionId;
    this.dispose();
    if (id) await forceClose(id).catch(() => undefined);
  }

  /** Stops everything in the browser (the server session stays for a reconnect). */
  dispose() {
    this.ended = true;
    this.abort.abort();
    this.stopLoops();
    this.subscriber?.leave();
    this.subscriber = null;
  }
}

class PlayFailureError extends Error {
  constructor(readonly failure: PlayFailure) {
    super(failure);
  }
}
