/**
 * What a session's runtime is to the pool (pool.ts) and the session manager (sessions.ts),
 * whatever its kind (docs/host.md "Runtime model"): the page runtime (runtime.ts: a Chromium
 * context with the engine's page and the bridge) and the light runtime (light/light-runtime.ts:
 * a Node process with the engine and a GStreamer sender; docs/light-runtime.md) both are one.
 * Events: `log` (level, message), `crash` (reason), `dead`.
 */
import type { EventEmitter } from 'node:events';
import type { RuntimeKind } from './config';
import type { BridgeCounters, BridgeReadyInfo, BridgeSessionConfig, HostCall, PrewarmResult } from './bridge-protocol';
import type { FootprintSource, ProcInfo } from './procs';
import type { EngineSummary } from './schemas';

export type RuntimeState = 'launching' | 'warm' | 'busy' | 'closing' | 'dead';

export type { RuntimeKind };

/** What a session plugs into its runtime: the bridge's calls and the engine's events. */
export interface RuntimeHandler {
  onHostCall(call: HostCall): Promise<unknown>;
  onEngineEvent(name: string, payload: unknown): void;
  /** The runtime's processes died under the session. */
  onCrash(reason: string): void;
}

export interface KillReport {
  /** ms from kill() to no process of the runtime left. */
  ms: number;
  /** processes that could not be killed (should be []). */
  leftover: ProcInfo[];
}

export interface SessionRuntime extends EventEmitter, FootprintSource {
  readonly id: string;
  readonly kind: RuntimeKind;
  state: RuntimeState;
  /** ms the launch took. */
  launchMs: number;
  /** What the prewarm loaded (null when there was none). */
  prewarmed: PrewarmResult | null;
  /** Requests and WebSockets the runtime refused (a page's guards; a light runtime makes none). */
  readonly blocked: { requests: number; websockets: number; lastUrl: string };
  sessionId: string | null;
  /** Makes it warm (with `prewarm`, the pool's: not a cold start a player waits for). */
  launch(prewarm?: boolean): Promise<this>;
  /** Hands the warm runtime to a session. */
  attach(sessionId: string, handler: RuntimeHandler, signalUrl: string): void;
  /** Starts the game and publishing; resolves when the host may report `ready`. */
  begin(cfg: BridgeSessionConfig, timeoutMs?: number): Promise<BridgeReadyInfo>;
  /** The picture at full resolution (1280×720), as PNG bytes. */
  screenshotPng(): Promise<Buffer>;
  counters(): Promise<BridgeCounters | null>;
  engineState(): Promise<EngineSummary | null>;
  /** The engine's current play state (to save before the runtime goes), or null. */
  snapshot(): Promise<string | null>;
  /** Says bye to the player and stops publishing. */
  bye(reason: string): Promise<void>;
  /** The processes it uses now (its own, and while it lives those it shares). */
  processes(): ProcInfo[];
  /** Every process of it, to the last one (kill waits for none left). */
  kill(): Promise<KillReport>;
  /** For process exit paths: SIGKILL, no waiting. */
  killSync(): void;
}

/** What GET /sessions/:id shows of the engine: getState() of either kind, trimmed. */
export function engineSummary(st: Record<string, unknown>): EngineSummary {
  const choices = (st.choices as { text: string }[] | undefined) ?? [];
  return {
    screen: String(st.screen),
    overlay: (st.overlay as string | null) ?? null,
    scene: (st.scene as string | null) ?? null,
    speakerName: (st.speakerName as string | null) ?? null,
    visibleText: String(st.visibleText ?? '').slice(0, 200),
    choices: choices.map((c) => String(c.text).slice(0, 80)),
    lineCount: Number(st.lineCount ?? 0),
    ending: (st.ending as string | null) ?? null,
    quality: String(st.quality),
    frame: Number(st.frame ?? 0),
  };
}
