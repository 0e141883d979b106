/**
 * One native game of one session (issue 15, docs/renpy.md): a Ren'Py game running unchanged on its
 * own virtual X display (Xvfb) with its sound in its own PulseAudio null sink, and the two helpers
 * that carry it to the runtime page: the X helper (xhelper.py: the window's changed pictures out,
 * XTest input in) and `parec` (the sink's monitor as PCM). Every process runs in the session's
 * isolation (isolation.ts: one cgroup, an unprivileged user, the game without network) and is
 * killed with it at the end; the display's lock files go too.
 *
 * Start order (each step waits for the previous one's socket): run folder and X cookie → Xvfb and
 * PulseAudio together → the X helper (connects at once: frames are black until the game draws) and
 * parec → Ren'Py. `firstPicture` resolves on the first frame that is not black.
 */
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { RenpyRuntime } from '../../../lib/api-types/titleRuntime';
import { WRAPPER, type LaunchPaths } from './compiled';
import type { InputMessage } from '../../../lib/streaming/messages';
import type { NativeConfig } from './config';
import { alive, isolateSession, isRoot, spawnIsolated, type Isolation } from './isolation';
import { pointerButton, renpyKeysym } from './keymap';
import { AUDIO_FRAME_BYTES, AUDIO_RATE } from './stream-protocol';
import { TextTail, type NativeTextEvent } from './text';
import { XHelper, type FrameUpdate } from './xhelper';

/** The display Ren'Py gets: it sizes its window to the screen minus 102 px, so 1382×822 gives a 1280×720 window at +51+51 (docs/renpy.md §2). */
export const SCREEN = { width: 1382, height: 822 };
export const WINDOW = { x: 51, y: 51, width: 1280, height: 720 };

const X11_DIR = '/tmp/.X11-unix';
/** PCM is sent to the page in pieces of this many ms. */
const AUDIO_CHUNK_MS = 20;

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

/** Xvfb found its display number in use (another agent's Xvfb took it between our look and its start). */
class DisplayTaken extends Error {}

/** Display numbers this agent process holds now (another agent's are seen by their lock files). */
const heldDisplays = new Set<number>();

function lockPid(display: number): number | null {
  try {
    const pid = Number(fs.readFileSync(`/tmp/.X${display}-lock`, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Removes a display's lock and socket (after its Xvfb is gone: a stale lock stops the next Xvfb on it). */
function clearDisplay(display: number): void {
  fs.rmSync(`/tmp/.X${display}-lock`, { force: true });
  fs.rmSync(path.join(X11_DIR, `X${display}`), { force: true });
}

/** The first free display number of the host's range (a stale lock, whose Xvfb is gone, is cleared). */
function takeDisplay(cfg: NativeConfig): number {
  for (let n = cfg.displayBase; n < cfg.displayBase + cfg.displays; n++) {
    if (heldDisplays.has(n)) continue;
    const pid = lockPid(n);
    if (pid !== null && alive(pid)) continue;
    clearDisplay(n);
    heldDisplays.add(n);
    return n;
  }
  throw new Error('no free X display number for a native session');
}

async function waitFor(what: string, ok: () => boolean, ms: number, dead?: () => string | null): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    const d = dead?.();
    if (d) throw new Error(`${what}: ${d}`);
    if (Date.now() - t0 > ms) throw new Error(`${what}: not ready after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function exited(child: ChildProcess): string | null {
  return child.exitCode !== null || child.signalCode !== null ? `exited (${child.exitCode ?? child.signalCode})` : null;
}

/** True when some sampled pixel of the bands is not black (the game has drawn). */
function drawn(u: FrameUpdate): boolean {
  for (const b of u.bands) {
    for (let i = 0; i < b.data.length; i += 4 * 97) if (b.data[i] | b.data[i + 1] | b.data[i + 2]) return true;
  }
  return false;
}

export interface NativeGameOptions {
  config: NativeConfig;
  sessionId: string;
  /** The session's cgroup name (without the random suffix): this host's prefix + the session id (host.ts). */
  groupName: string;
  /** The title's `runtime` in its meta.json (host.ts readRuntimeSpec). */
  spec: RenpyRuntime;
  /** Where Ren'Py starts from: the game compiled ahead once it is ready, else Debian's folder (compiled.ts). */
  launch: LaunchPaths;
  /** Files to put in the game's save folder before it starts (the player's saves: saves.ts). */
  saves: { name: string; data: Buffer }[];
  log: Log;
}

/**
 * Events: `frame` (FrameUpdate, after the first picture), `audio` (PCM Buffer, AUDIO_CHUNK_MS
 * pieces), `text` (NativeTextEvent: a line or the choices shown, text.ts), `exit` (why: the game or
 * its display ended by itself).
 */
export class NativeGame extends EventEmitter {
  readonly startedAt = Date.now();
  /** ms from the start to the game's first picture. */
  firstPictureMs: number | null = null;
  /** Resolves on the game's first picture; rejects when it does not come (start timeout, a process died). */
  readonly firstPicture: Promise<number>;
  helper: XHelper | null = null;
  private readonly children: { name: string; child: ChildProcess }[] = [];
  private killed: Promise<number[]> | null = null;
  private resolveFirst!: (ms: number) => void;
  private rejectFirst!: (e: Error) => void;
  private pcmRest: Buffer = Buffer.alloc(0);
  private xvfbPid: number | null = null;
  /** Why the game or a part of it ended by itself (null while it runs): a listener added late still learns it. */
  exitReason: string | null = null;
  private text: TextTail | null = null;
  /** The line and the choices shown now (a page that connects later gets them first). */
  readonly shown: { line: NativeTextEvent | null; choices: NativeTextEvent | null } = { line: null, choices: null };
  readonly runDir: string;
  readonly saveDir: string;

  private constructor(
    private readonly o: NativeGameOptions,
    readonly display: number,
    private readonly iso: Isolation,
    /** The session's uid and gid (when the agent is root). */
    private readonly uid: number,
  ) {
    super();
    this.runDir = path.join(o.config.runDir, o.sessionId);
    this.saveDir = path.join(this.runDir, 'saves');
    this.firstPicture = new Promise<number>((res, rej) => {
      this.resolveFirst = res;
      this.rejectFirst = rej;
    });
    // a start that fails is reported by start(); nobody else needs to catch this one
    this.firstPicture.catch(() => undefined);
  }

  /** Starts the display, the sound server, the helpers and the game; resolves once all are spawned (not drawn yet: see firstPicture). */
  static async start(o: NativeGameOptions): Promise<NativeGame> {
    // another agent on this machine may take the same free number at the same moment: its
    // Xvfb then wins the display and ours exits at once; try the next free one
    for (let attempt = 1; ; attempt++) {
      const display = takeDisplay(o.config);
      // each display's session as its own user (config.ts uidBase)
      const id = o.config.uidBase + (display - o.config.displayBase);
      const iso = isolateSession(o.config.cgroupRoot, o.groupName, id, id);
      const game = new NativeGame(o, display, iso, id);
      try {
        await game.launch();
        return game;
      } catch (e) {
        await game.kill();
        game.removeFiles();
        if (!(e instanceof DisplayTaken) || attempt >= 3) throw e;
        o.log('warn', `native ${o.sessionId}: display :${display} was taken meanwhile; trying another`);
      }
    }
  }

  private dir(...p: string[]): string {
    return path.join(this.runDir, ...p);
  }

  private async launch(): Promise<void> {
    const { config, spec } = this.o;
    fs.rmSync(this.runDir, { recursive: true, force: true });
    // the sessions' parent folder: the session's user may pass through it, not list it
    fs.mkdirSync(config.runDir, { recursive: true, mode: 0o711 });
    fs.chmodSync(config.runDir, 0o711);
    fs.mkdirSync(this.runDir, { mode: 0o700 });
    for (const d of ['home', 'rt', 'log', 'saves']) fs.mkdirSync(this.dir(d), { mode: 0o700 });
    for (const f of this.o.saves) fs.writeFileSync(this.dir('saves', f.name), f.data);
    const xauth = this.dir('xauth');
    execFileSync('xauth', ['-q', '-f', xauth, 'add', `:${this.display}`, '.', randomBytes(16).toString('hex')], { stdio: 'ignore' });
    if (isRoot) {
      fs.mkdirSync(X11_DIR, { recursive: true });
      fs.chmodSync(X11_DIR, 0o1777);
      execFileSync('chown', ['-R', `${this.uid}:${this.uid}`, this.runDir]);
    }
    const base = { HOME: this.dir('home'), PATH: '/usr/bin:/bin', XDG_RUNTIME_DIR: this.dir('rt') };
    const pulseSock = this.dir('rt', 'pulse.sock');
    const xSock = path.join(X11_DIR, `X${this.display}`);

    const xvfb = this.spawn('xvfb', false, 'Xvfb', [`:${this.display}`, '-screen', '0', `${SCREEN.width}x${SCREEN.height}x24`, '-nolisten', 'tcp', '-nolisten', 'local', '-auth', xauth, '-noreset'], base);
    const pulse = this.spawn(
      'pulse',
      false,
      'pulseaudio',
      ['-n', '--daemonize=no', '--system=no', '--exit-idle-time=-1', '--use-pid-file=no', `--load=module-native-protocol-unix socket=${pulseSock} auth-anonymous=1`, `--load=module-null-sink sink_name=game rate=${AUDIO_RATE} channels=2`],
      base,
    );
    await Promise.all([
      waitFor('Xvfb', () => fs.existsSync(xSock), 5000, () => {
        const d = this.died(xvfb, 'xvfb');
        if (d && /already active/.test(d)) throw new DisplayTaken(d);
        return d;
      }),
      waitFor('PulseAudio', () => fs.existsSync(pulseSock), 5000, () => this.died(pulse, 'pulse')),
    ]);
    xvfb.once('exit', () => this.ended('display_exited'));
    this.xvfbPid = xvfb.pid ?? null;

    const xenv = { ...base, DISPLAY: `:${this.display}`, XAUTHORITY: xauth };
    const helper = await XHelper.start({ python: config.python, rect: WINDOW, env: xenv, wrap: this.iso.prefix({ netns: false }) });
    this.helper = helper;
    // as the display's own user the helper grabs through shared memory (~0.4 ms a picture, else ~6 ms)
    if (!helper.info.shm) this.o.log('warn', `native ${this.o.sessionId}: the X helper grabs without shared memory`);
    helper.on('frame', (u: FrameUpdate) => this.onFrame(u));
    helper.on('log', (l: { level: 'info' | 'warn' | 'error'; message: string }) => this.o.log(l.level, `native ${this.o.sessionId}: x helper: ${l.message}`));
    helper.on('exit', () => this.ended('x_helper_exited'));

    const pulseEnv = { ...base, PULSE_SERVER: `unix:${pulseSock}` };
    const pulseDied = () => this.o.log('warn', `native ${this.o.sessionId}: the sound server or its recorder ended: the stream goes on without sound`);
    pulse.once('exit', () => {
      if (!this.killed) pulseDied();
    });
    const parec = this.spawn('parec', false, 'parec', ['-d', 'game.monitor', '--raw', '--format=s16le', `--rate=${AUDIO_RATE}`, '--channels=2', `--latency-msec=${AUDIO_CHUNK_MS}`], pulseEnv, 'pipe');
    parec.stdout?.on('data', (b: Buffer) => this.onPcm(b));

    const game = this.spawn(
      'renpy',
      true,
      config.python,
      [WRAPPER, this.o.launch.baseDir, '--savedir', this.saveDir],
      {
        ...xenv,
        SDL_AUDIODRIVER: 'pulse',
        PULSE_SERVER: `unix:${pulseSock}`,
        RENPY_LOG_BASE: this.dir('log'),
        RENPY_SEARCHPATH: this.o.launch.overlay,
        ...this.o.launch.env,
        YUMECAST_TEXT_FILE: this.dir('home', 'text.jsonl'),
        RENPY_LANGUAGE: spec.language ?? '',
        // Ren'Py opens links with Python's webbrowser: never a browser on the host
        BROWSER: '/bin/true',
        // the desktop's layout without the "pc" variant: no Display (fullscreen would move the
        // picture out of the captured rectangle) and no Quit in the game's own menus
        RENPY_VARIANT: 'large',
        ...(config.renderer === 'sw' ? { RENPY_RENDERER: 'sw' } : {}),
        ...(config.renderThreads !== null ? { LP_NUM_THREADS: String(config.renderThreads) } : {}),
      },
    );
    game.once('exit', (code, sig) => this.ended(`game_exited (${code ?? sig})`));
    this.text = new TextTail(this.dir('home', 'text.jsonl'), (e) => {
      if (e.event === 'choices') this.shown.choices = e.payload.length ? e : null;
      else {
        this.shown.line = e;
        this.shown.choices = null;
      }
      this.emit('text', e);
    });
    this.text.start();
    const timer = setTimeout(() => this.rejectFirst(new Error(`the game showed no picture within ${config.startTimeoutMs} ms`)), config.startTimeoutMs);
    void this.firstPicture.finally(() => clearTimeout(timer)).catch(() => undefined);
  }

  /** How a process that should be running ended, with the end of its log (for the start's error), or null while it runs. */
  private died(child: ChildProcess, name: string): string | null {
    const how = exited(child);
    if (!how) return null;
    let tail = '';
    try {
      tail = fs.readFileSync(this.dir('log', `${name}.txt`), 'utf8').trim().split('\n').slice(-3).join(' | ').slice(-400);
    } catch {
      /* no log */
    }
    return `${how}${tail ? `: ${tail}` : ''}`;
  }

  private spawn(name: string, netns: boolean, cmd: string, args: string[], env: Record<string, string>, stdio: 'pipe' | 'ignore' = 'ignore'): ChildProcess {
    const child = spawnIsolated(this.iso, { netns }, cmd, args, env, this.dir('log', `${name}.txt`), stdio);
    child.on('error', (e) => this.o.log('error', `native ${this.o.sessionId}: ${name}: ${e.message}`));
    this.children.push({ name, child });
    return child;
  }

  private onFrame(u: FrameUpdate): void {
    if (this.firstPictureMs === null) {
      if (!drawn(u)) return;
      this.firstPictureMs = Date.now() - this.startedAt;
      this.resolveFirst(this.firstPictureMs);
      // the page needs the whole picture first: ask for every band again
      this.helper?.full();
      return;
    }
    this.emit('frame', u);
  }

  private onPcm(b: Buffer): void {
    const chunk = (AUDIO_RATE * AUDIO_CHUNK_MS * AUDIO_FRAME_BYTES) / 1000;
    let buf = this.pcmRest.length ? Buffer.concat([this.pcmRest, b]) : b;
    while (buf.length >= chunk) {
      this.emit('audio', buf.subarray(0, chunk));
      buf = buf.subarray(chunk);
    }
    this.pcmRest = Buffer.from(buf);
  }

  private ended(why: string): void {
    if (this.killed || this.exitReason) return;
    this.exitReason = why;
    this.rejectFirst(new Error(why));
    this.emit('exit', why);
  }

  /** The player's input (already validated by the bridge and again by the stream server), as X events in the game's window. */
  input(m: InputMessage): void {
    const h = this.helper;
    if (!h) return;
    if (m.type === 'pointer') {
      if (m.kind === 'move') h.move(m.x, m.y);
      else h.button(pointerButton(m.button ?? 0), m.kind === 'down', m.x, m.y);
    } else if (m.type === 'wheel') {
      h.wheel(m.dy);
    } else {
      const keysym = renpyKeysym(m.key);
      if (keysym) h.key(keysym, m.kind === 'down');
    }
  }

  /** Every pid of the session's processes now (its footprint). */
  pids(): number[] {
    return this.iso.pids();
  }

  /** Kills every process of the game (idempotent); resolves with the pids still alive (normally none). */
  kill(): Promise<number[]> {
    this.killed ??= (async () => {
      this.text?.stop();
      await this.helper?.close().catch(() => undefined);
      const left = await this.iso.kill(5000);
      for (const { child } of this.children) {
        if (child.exitCode === null && child.signalCode === null && child.pid) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }
      }
      // the lock is ours to clear only when our Xvfb made it (another agent's Xvfb may hold the number)
      const lock = lockPid(this.display);
      if (lock === null || lock === this.xvfbPid || !alive(lock)) clearDisplay(this.display);
      heldDisplays.delete(this.display);
      return left;
    })();
    return this.killed;
  }

  /** SIGKILLs every process of the game now, without waiting or collecting (the agent's exit paths). */
  killSync(): void {
    this.iso.killSync();
  }

  /** Removes the run folder (after the saves were collected). */
  removeFiles(): void {
    fs.rmSync(this.runDir, { recursive: true, force: true });
  }
}
