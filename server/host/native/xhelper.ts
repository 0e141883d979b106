/**
 * The agent's side of the native runtime's X helper (xhelper.py, one per session): spawns it on
 * the session's display (its uid/gid, optionally under a command prefix such as the session's
 * cgroup entry), parses its binary stdout (hello, frame bands, screenshots, logs) and writes its
 * JSON-line commands (pointer, wheel, keys, full frame, screenshot, quit). Why here: the helper
 * holds the one X connection (grab on damage with MIT-SHM, XTest input confined to the game's
 * rectangle), and this class is the only thing that speaks its protocol. Messages are
 * 1 byte type + uint32 LE length + payload; a length above W×H×4+16 (or an unknown type, or a
 * malformed frame) is a protocol error: the helper is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { bgrxToRgba as convert } from './stream-protocol';

export interface XHelperOptions {
  /** Default /usr/bin/python3 (Debian's 3.11, not a pyenv one). */
  python?: string;
  rect: { x: number; y: number; width: number; height: number };
  /** The helper's whole environment: DISPLAY, XAUTHORITY (nothing else is needed). A NodeJS.ProcessEnv fits. */
  env: Readonly<Record<string, string | undefined>>;
  uid?: number;
  gid?: number;
  /** A command prefix the helper is exec'd under, e.g. ['sh', '-c', 'echo $$ > …/cgroup.procs; exec "$@"', 'sh']. */
  wrap?: string[];
  minIntervalMs?: number;
  pollMs?: number;
}
export interface FrameBand {
  y: number;
  rows: number;
  /** rows×width×4 bytes, BGRX. */
  data: Buffer;
}
export interface FrameUpdate {
  seq: number;
  bands: FrameBand[];
  /** Every band of the rectangle is in this update (the first one, and the first after full()). */
  full: boolean;
}
export interface XHelperInfo {
  width: number;
  height: number;
  shm: boolean;
  damage: boolean;
}
export interface XHelperLog {
  level: 'info' | 'warn' | 'error';
  message: string;
}

export const BAND_ROWS = 16;
export const XHELPER_SCRIPT = path.join(__dirname, 'xhelper.py');
const START_TIMEOUT_MS = 5000;
/** Before the hello the size is unknown: only small messages (hello, logs) are accepted. */
const PRE_HELLO_MAX = 64 * 1024;

type Pending = { resolve: (b: Buffer) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

export class XHelper extends EventEmitter {
  readonly pid: number;
  private hello: XHelperInfo = { width: 0, height: 0, shm: false, damage: false };
  private readonly child: ChildProcess;
  private header = Buffer.alloc(5);
  private headerFill = 0;
  private payload: Buffer | null = null;
  private payloadFill = 0;
  private type = 0;
  private exited = false;
  private exitCode: number | null = null;
  private nextShot = 1;
  private readonly shots = new Map<number, Pending>();
  private readonly stats = { frames: 0, bands: 0, bytes: 0, commands: 0 };
  private readonly exitPromise: Promise<void>;

  private constructor(o: XHelperOptions) {
    super();
    const python = o.python ?? '/usr/bin/python3';
    const { x, y, width, height } = o.rect;
    const args = [XHELPER_SCRIPT, '--rect', `${x},${y},${width},${height}`];
    if (o.minIntervalMs !== undefined) args.push('--min-interval-ms', String(o.minIntervalMs));
    if (o.pollMs !== undefined) args.push('--poll-ms', String(o.pollMs));
    const argv = [...(o.wrap ?? []), python, ...args];
    this.child = spawn(argv[0], argv.slice(1), {
      env: { ...o.env } as NodeJS.ProcessEnv,
      uid: o.uid,
      gid: o.gid,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pid = this.child.pid ?? -1;
    this.exitPromise = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        this.exitCode = code ?? (signal ? -1 : null);
        for (const [, p] of this.shots) {
          clearTimeout(p.timer);
          p.reject(new Error(`x helper exited (${code ?? signal})`));
        }
        this.shots.clear();
        this.emit('exit', this.exitCode);
        resolve();
      });
    });
    this.child.on('error', (error) => this.emit('log', { level: 'error', message: `x helper: ${error.message}` }));
    this.child.stdin?.on('error', () => undefined); // EPIPE after the helper died: 'exit' reports it
    this.child.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
    let err = '';
    this.child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      const lines = err.split('\n');
      err = (lines.pop() ?? '').slice(-4000);
      for (const line of lines) if (line.trim()) this.emit('log', { level: 'warn', message: `stderr: ${line.slice(0, 2000)}` });
    });
  }

  /** Spawns the helper; resolves after its hello, rejects on exit or after 5 s (the helper is then killed). */
  static start(o: XHelperOptions): Promise<XHelper> {
    const h = new XHelper(o);
    return new Promise((resolve, reject) => {
      const logs: string[] = [];
      const onLog = (l: XHelperLog) => logs.push(l.message);
      const done = (error?: Error) => {
        clearTimeout(timer);
        h.off('hello', onHello).off('exit', onExit).off('log', onLog);
        if (error) reject(error);
        else resolve(h);
      };
      const onHello = () => done();
      const onExit = (code: number | null) =>
        done(new Error(`x helper exited (${code}) before its hello${logs.length ? `: ${logs.slice(-3).join('; ')}` : ''}`));
      const timer = setTimeout(() => {
        h.kill();
        done(new Error(`x helper sent no hello within ${START_TIMEOUT_MS} ms${logs.length ? `: ${logs.slice(-3).join('; ')}` : ''}`));
      }, START_TIMEOUT_MS);
      h.on('hello', onHello).on('exit', onExit).on('log', onLog);
    });
  }

  move(x: number, y: number): void {
    this.send({ op: 'move', x, y });
  }
  button(button: 1 | 2 | 3, down: boolean, x: number, y: number): void {
    this.send({ op: 'button', button, down, x, y });
  }
  wheel(dy: number): void {
    this.send({ op: 'wheel', dy });
  }
  key(keysym: string, down: boolean): void {
    this.send({ op: 'key', keysym, down });
  }
  /** The next update holds every band (e.g. a new viewer needs a key frame). */
  full(): void {
    this.send({ op: 'full' });
  }

  /** The whole rectangle now, W×H×4 BGRX; rejects on timeout or exit. */
  screenshot(timeoutMs = 5000): Promise<Buffer> {
    if (this.exited) return Promise.reject(new Error('x helper has exited'));
    const id = this.nextShot;
    this.nextShot = this.nextShot >= 0xffffffff ? 1 : this.nextShot + 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.shots.delete(id);
        reject(new Error(`screenshot timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.shots.set(id, { resolve, reject, timer });
      this.send({ op: 'shot', id });
    });
  }

  /** quit, then SIGKILL after 1 s; resolves once the helper has exited. */
  async close(): Promise<void> {
    if (!this.exited) {
      this.send({ op: 'quit' });
      this.child.stdin?.end();
      const timer = setTimeout(() => this.kill(), 1000);
      await this.exitPromise;
      clearTimeout(timer);
    }
  }

  counters(): { frames: number; bands: number; bytes: number; commands: number } {
    return { ...this.stats };
  }

  /** What the helper's hello said: the rectangle's size, MIT-SHM and DAMAGE in use. */
  get info(): XHelperInfo {
    return this.hello;
  }

  /** The exit code once exited (null while running, -1 when killed by a signal). */
  get code(): number | null {
    return this.exitCode;
  }

  private kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  private send(cmd: Record<string, unknown>): void {
    if (this.exited || !this.child.stdin || this.child.stdin.destroyed) return;
    this.stats.commands++;
    this.child.stdin.write(`${JSON.stringify(cmd)}\n`);
  }

  private protocolError(message: string): void {
    this.emit('log', { level: 'error', message: `x helper protocol error: ${message}` });
    this.payload = null;
    this.child.stdout?.removeAllListeners('data');
    this.kill();
  }

  /**
   * The largest message: a full frame (W×H×4 pixels + 6 + 4 per band of header; W×H×4+16 would
   * refuse the full frame's band headers), a screenshot (W×H×4 + 4), plus 16 of slack.
   */
  private maxLength(): number {
    const { width, height } = this.hello;
    return width ? width * height * 4 + 6 + 4 * Math.ceil(height / BAND_ROWS) + 16 : PRE_HELLO_MAX;
  }

  /** Messages split across chunks and several in one chunk; each payload copied once. */
  private onData(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.payload === null) {
        const n = Math.min(5 - this.headerFill, chunk.length - at);
        chunk.copy(this.header, this.headerFill, at, at + n);
        this.headerFill += n;
        at += n;
        if (this.headerFill < 5) return;
        this.headerFill = 0;
        this.type = this.header[0];
        const length = this.header.readUInt32LE(1);
        if (length > this.maxLength()) return this.protocolError(`message of ${length} bytes`);
        this.payload = Buffer.allocUnsafe(length);
        this.payloadFill = 0;
      }
      const n = Math.min(this.payload.length - this.payloadFill, chunk.length - at);
      chunk.copy(this.payload, this.payloadFill, at, at + n);
      this.payloadFill += n;
      at += n;
      if (this.payloadFill < this.payload.length) return;
      const payload = this.payload;
      this.payload = null;
      this.onMessage(String.fromCharCode(this.type), payload);
      if (this.exited || this.child.stdout?.listenerCount('data') === 0) return;
      if (this.type === 0x48 /* H */) {
        // start() resolves on the hello: let its caller attach 'frame' listeners before the first
        // update (which may be in this very chunk) is parsed.
        const rest = chunk.subarray(at);
        this.child.stdout?.pause();
        setImmediate(() => {
          if (rest.length) this.onData(rest);
          this.child.stdout?.resume();
        });
        return;
      }
    }
  }

  private onMessage(type: string, p: Buffer): void {
    if (type === 'H') {
      let hello: XHelperInfo;
      try {
        hello = JSON.parse(p.toString('utf8')) as XHelperInfo;
      } catch {
        return this.protocolError('hello is not JSON');
      }
      const ok = Number.isInteger(hello.width) && Number.isInteger(hello.height) && hello.width > 0 && hello.height > 0;
      if (!ok || this.hello.width) return this.protocolError('bad or second hello');
      this.hello = { width: hello.width, height: hello.height, shm: hello.shm === true, damage: hello.damage === true };
      this.emit('hello', this.hello);
    } else if (type === 'L') {
      let log: XHelperLog;
      try {
        log = JSON.parse(p.toString('utf8')) as XHelperLog;
      } catch {
        log = { level: 'warn', message: p.toString('utf8') };
      }
      this.emit('log', { level: ['info', 'warn', 'error'].includes(log.level) ? log.level : 'warn', message: String(log.message) });
    } else if (type === 'F') {
      const frame = this.parseFrame(p);
      if (!frame) return this.protocolError('malformed frame');
      this.stats.frames++;
      this.stats.bands += frame.bands.length;
      this.stats.bytes += p.length;
      this.emit('frame', frame);
    } else if (type === 'S') {
      const { width, height } = this.info;
      if (!width || p.length !== 4 + width * height * 4) return this.protocolError('malformed screenshot');
      const id = p.readUInt32LE(0);
      const pending = this.shots.get(id);
      if (!pending) return;
      this.shots.delete(id);
      clearTimeout(pending.timer);
      pending.resolve(p.subarray(4));
    } else {
      this.protocolError(`unknown message type ${JSON.stringify(type)}`);
    }
  }

  private parseFrame(p: Buffer): FrameUpdate | null {
    const { width, height } = this.info;
    if (!width || p.length < 6) return null;
    const seq = p.readUInt32LE(0);
    const count = p.readUInt16LE(4);
    const bands: FrameBand[] = [];
    let at = 6;
    let lastY = -1;
    for (let i = 0; i < count; i++) {
      if (at + 4 > p.length) return null;
      const y = p.readUInt16LE(at);
      const rows = p.readUInt16LE(at + 2);
      const size = rows * width * 4;
      at += 4;
      if (rows < 1 || rows > BAND_ROWS || y <= lastY || y + rows > height || at + size > p.length) return null;
      bands.push({ y, rows, data: p.subarray(at, at + size) });
      at += size;
      lastY = y;
    }
    if (at !== p.length) return null;
    return { seq, bands, full: count === Math.ceil(height / BAND_ROWS) };
  }
}

/** BGRX (the helper's pixels) → RGBA with opaque alpha, e.g. for sharp's {raw: {width, height, channels: 4}}. */
export function bgrxToRgba(src: Buffer, out: Buffer = Buffer.allocUnsafe(src.length)): Buffer {
  if (out.length < src.length) throw new RangeError('bgrxToRgba: output smaller than input');
  convert(src, out);
  return out;
}
