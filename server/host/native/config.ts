/**
 * Settings of the native runtime kind (issue 15: a Ren'Py game under Xvfb, docs/renpy.md), read
 * from the environment with local defaults like the rest of the host's config (server/host/config.ts
 * holds them as `native`). Each session gets display :displayBase+slot, a run folder under runDir,
 * and runs as uid:gid (nobody by default) when the agent is root.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envInt, envString, type Env } from '../../shared/env';

export interface NativeConfig {
  /** HOST_NATIVE=0 turns the native runtime off (its titles then fail to start with `runtime_start_failed`). */
  enabled: boolean;
  /** HOST_NATIVE_DISPLAY_BASE: the first X display number a session may use (100). */
  displayBase: number;
  /** HOST_NATIVE_DISPLAYS: how many display numbers from displayBase this host may use (64). */
  displays: number;
  /** HOST_NATIVE_RUN_DIR: where each session's folder (home, saves, sockets, logs) is made. */
  runDir: string;
  /**
   * HOST_NATIVE_UID_BASE: when the agent is root, each display's session runs as its own uid and
   * gid, base + (display − displayBase) (61000…): one session's processes cannot read another's
   * X cookie, sound socket or saves, nor signal its processes. No passwd entry is needed.
   */
  uidBase: number;
  /** HOST_NATIVE_PYTHON: Debian's Python, which has Ren'Py's modules and python3-xlib (/usr/bin/python3). */
  python: string;
  /** HOST_NATIVE_CGROUP_ROOT: a cgroup v2 folder where each session gets its own group (killed whole at the end). */
  cgroupRoot: string;
  /** HOST_NATIVE_START_TIMEOUT_MS: the game must show its first picture within this (30 s). */
  startTimeoutMs: number;
  /**
   * HOST_NATIVE_RENDERER: Ren'Py's renderer (RENPY_RENDERER): `gl2` (its default: OpenGL on Mesa's
   * llvmpipe, no GPU here) or `sw` (its software renderer). docs/performance.md "The native runtime".
   */
  renderer: 'gl2' | 'sw';
  /**
   * HOST_NATIVE_COMPILE_AHEAD=0 starts every game from Debian's Ren'Py folder, parsing its
   * scripts at each start (the way before; compiled.ts). Default on.
   */
  compileAhead: boolean;
  /** HOST_NATIVE_COMPILED_DIR: where the games compiled ahead are kept (compiled.ts), shared by the machine's agents. */
  compiledDir: string;
  /** HOST_NATIVE_RENDER_THREADS: llvmpipe's rasteriser threads (LP_NUM_THREADS; 0 = in Ren'Py's own thread; unset = Mesa's default, one per core). */
  renderThreads: number | null;
}

/** The cgroup v2 hierarchy: /sys/fs/cgroup itself on a pure v2 system, or its `unified` mount on a hybrid one. */
function defaultCgroupRoot(): string {
  return fsExists('/sys/fs/cgroup/unified/cgroup.procs') ? '/sys/fs/cgroup/unified' : '/sys/fs/cgroup';
}

function fsExists(p: string): boolean {
  return fs.existsSync(p);
}

export function loadNativeConfig(env: Env): NativeConfig {
  return {
    enabled: envString(env.HOST_NATIVE) !== '0',
    displayBase: envInt(env, 'HOST_NATIVE_DISPLAY_BASE', 100, 1, 60_000),
    displays: envInt(env, 'HOST_NATIVE_DISPLAYS', 64, 1, 1000),
    runDir: path.resolve(envString(env.HOST_NATIVE_RUN_DIR) ?? path.join(os.tmpdir(), 'yumecast-native')),
    uidBase: envInt(env, 'HOST_NATIVE_UID_BASE', 61_000, 1000, 2 ** 31 - 100_000),
    python: envString(env.HOST_NATIVE_PYTHON) ?? '/usr/bin/python3',
    cgroupRoot: envString(env.HOST_NATIVE_CGROUP_ROOT) ?? defaultCgroupRoot(),
    startTimeoutMs: envInt(env, 'HOST_NATIVE_START_TIMEOUT_MS', 30_000, 1000, 600_000),
    renderer: envString(env.HOST_NATIVE_RENDERER) === 'sw' ? 'sw' : 'gl2',
    compileAhead: envString(env.HOST_NATIVE_COMPILE_AHEAD) !== '0',
    compiledDir: path.resolve(envString(env.HOST_NATIVE_COMPILED_DIR) ?? path.join(os.tmpdir(), 'yumecast-renpy-compiled')),
    renderThreads: envString(env.HOST_NATIVE_RENDER_THREADS) === undefined ? null : envInt(env, 'HOST_NATIVE_RENDER_THREADS', 0, 0, 16),
  };
}
