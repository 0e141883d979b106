/**
 * The native runtime kind as the session manager (../sessions.ts) sees it (issue 15): which titles
 * are native (their meta.json's `runtime`), and for such a session the game started beside its
 * runtime page (game.ts), the page's stream key (stream-server.ts) and the saves kept on the server
 * (saves.ts); at the end, the saves' last upload, the stream closed and every process killed.
 * The runtime page itself, its publisher and its rules are the web runtime's, unchanged: the page
 * gets `native.streamUrl` in its bridge config and plays that stream instead of the VN engine.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GAME_ID_RE } from '../../../lib/api-types/ids';
import { parseTitleRuntime, type RenpyRuntime } from '../../../lib/api-types/titleRuntime';
import type { StartSessionBody } from '../../shared/host-contract';
import type { ApiClient } from '../api-client';
import type { FootprintSource, ProcInfo } from '../procs';
import { NATIVE_STREAM_PATH } from '../page-paths';
import type { NativeConfig } from './config';
import { CompiledGames } from './compiled';
import { NativeGame } from './game';
import { sweepGroups } from './isolation';
import { SaveCollector, filesFromSaves, type SaveFile } from './saves';
import type { NativeStreams } from './stream-server';

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

const SAFE_SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A native session's parts, while it lives. */
export interface NativeRun {
  game: NativeGame;
  key: string;
  saves: SaveCollector;
  /** What the page's bridge gets (BridgeSessionConfig.native). */
  bridge: { streamUrl: string };
}

/**
 * A native title's runtime from its meta.json (checked by parseTitleRuntime, as the catalogue
 * checks it), or null for a web-engine title, none, or a "runtime" the catalogue would refuse.
 */
export function readRuntimeSpec(gamesDirs: readonly string[], gameId: string): RenpyRuntime | null {
  if (!GAME_ID_RE.test(gameId)) return null;
  for (const dir of gamesDirs) {
    let meta: unknown;
    try {
      meta = JSON.parse(fs.readFileSync(path.join(dir, gameId, 'meta.json'), 'utf8'));
    } catch {
      continue;
    }
    const parsed = parseTitleRuntime(typeof meta === 'object' && meta !== null ? (meta as { runtime?: unknown }).runtime : undefined);
    return parsed.ok && parsed.runtime.kind === 'renpy' ? parsed.runtime : null;
  }
  return null;
}

/** A runtime's footprint with the game's processes counted as its own (they serve this session only). */
export function withGameProcesses(rt: FootprintSource, game: NativeGame): FootprintSource {
  return {
    processShare(procs?: ProcInfo[]) {
      const share = rt.processShare(procs);
      const pids = new Set(game.pids());
      return { ...share, own: [...share.own, ...(procs ?? []).filter((p) => pids.has(p.pid))] };
    },
  };
}

export class NativeHost {
  private readonly specs = new Map<string, RenpyRuntime | null>();
  private readonly runs = new Map<string, NativeRun>();
  /** The games compiled ahead (compiled.ts): made at the agent's start and on a title's first start. */
  readonly compiled: CompiledGames;

  /** This host's sessions' cgroups are named `<groupPrefix><session id>-<random>`. */
  private readonly groupPrefix: string;

  constructor(
    private readonly config: NativeConfig,
    hostId: string,
    private readonly gamesDirs: readonly string[],
    private readonly streams: NativeStreams,
    private readonly pageOrigin: () => string,
    private readonly api: ApiClient | null,
    private readonly log: Log,
  ) {
    // a fixed-length digest: one host's prefix is never the start of another's (h1 / h1-2)
    this.groupPrefix = `yumecast-native-${createHash('sha256').update(hostId).digest('hex').slice(0, 16)}-`;
    this.compiled = new CompiledGames(config, log);
  }

  /**
   * Compiles ahead the games of every native title in the games folders, one after the other
   * (HOST_NATIVE_COMPILE_AHEAD); resolves when done. The agent does not wait for it: a game
   * started meanwhile starts from Debian's folder.
   */
  async compileAhead(): Promise<void> {
    if (!this.config.enabled || !this.config.compileAhead) return;
    const seen = new Set<string>();
    for (const dir of this.gamesDirs) {
      let ids: string[] = [];
      try {
        ids = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const id of ids) {
        const spec = this.specFor(id);
        if (!spec || seen.has(spec.baseDir)) continue;
        seen.add(spec.baseDir);
        await this.compiled.prepare(spec);
      }
    }
  }

  /** Ends what an agent of this host that died left running (its sessions' groups); at start. */
  async sweep(): Promise<number> {
    return sweepGroups(this.config.cgroupRoot, this.groupPrefix);
  }

  /** The title's native runtime, or null when the web engine plays it (read once per title). */
  specFor(gameId: string): RenpyRuntime | null {
    if (!this.specs.has(gameId)) this.specs.set(gameId, readRuntimeSpec(this.gamesDirs, gameId));
    return this.specs.get(gameId) ?? null;
  }

  /** Starts the game of a session (its saves restored); resolves once its processes run. */
  async start(req: StartSessionBody, spec: RenpyRuntime): Promise<NativeRun> {
    if (!this.config.enabled) throw new Error('the native runtime is off on this host (HOST_NATIVE=0)');
    // the id names the session's folder and group: never `.`/`..`, never long enough to overflow a socket path
    if (!SAFE_SESSION_ID.test(req.sessionId)) throw new Error('a native session needs an id of letters, digits, - and _ (at most 64)');
    const restored = filesFromSaves(req.saves);
    const log: Log = (level, m) => this.log(level, m);
    const launch = this.compiled.paths(spec);
    if (this.config.compileAhead && !launch.compiled) void this.compiled.prepare(spec);
    const game = await NativeGame.start({ config: this.config, sessionId: req.sessionId, groupName: `${this.groupPrefix}${req.sessionId}`, spec, launch, saves: restored, log });
    try {
      return this.track(req, game, restored);
    } catch (e) {
      await game.kill();
      game.removeFiles();
      throw e;
    }
  }

  private track(req: StartSessionBody, game: NativeGame, restored: SaveFile[]): NativeRun {
    const api = this.api;
    const saves = new SaveCollector(
      game.saveDir,
      async (slot, state) => {
        if (api) await api.save(req.sessionId, slot, state);
      },
      (level, m) => this.log(level, `session ${req.sessionId}: ${m}`),
      restored,
    );
    saves.start();
    const key = this.streams.add(game);
    const streamUrl = `${this.pageOrigin().replace(/^http/, 'ws')}${NATIVE_STREAM_PATH}?key=${key}`;
    this.log('info', `session ${req.sessionId}: native game on display :${game.display} (${restored.length} save files restored)`);
    const run = { game, key, saves, bridge: { streamUrl } };
    this.runs.set(req.sessionId, run);
    return run;
  }

  /** SIGKILLs every live game at once (the agent's exit paths: nothing may outlive it). */
  killAllSync(): void {
    for (const run of this.runs.values()) run.game.killSync();
  }

  /** A live session's game, or undefined. */
  runOf(sessionId: string): NativeRun | undefined {
    return this.runs.get(sessionId);
  }

  /** The saves' last upload, the stream closed, every process of the game killed, its files removed. */
  async end(sessionId: string, run: NativeRun): Promise<{ ms: number; leftover: number[] }> {
    const t0 = Date.now();
    this.runs.delete(sessionId);
    run.saves.stop();
    this.streams.remove(run.key);
    const leftover = await run.game.kill();
    // the files are read after the game is gone: nothing is half-written any more
    await run.saves.flush();
    run.game.removeFiles();
    return { ms: Date.now() - t0, leftover };
  }
}
