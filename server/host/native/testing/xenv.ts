/**
 * Real X parts for the native runtime's tests: an Xvfb on a free display of :140–:149 with its
 * own xauth cookie (as docs/renpy.md §3 runs a session's display), and the test X client
 * (xclient.py) that stands in for Ren'Py's window, paints on command and reports the input events
 * it receives. Each part is killed and its files removed by its stop(); nothing is left behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const XVFB = '/usr/bin/Xvfb';
export const PYTHON = '/usr/bin/python3';
const CLIENT = path.join(__dirname, 'xclient.py');
const DISPLAYS = [140, 141, 142, 143, 144, 145, 146, 147, 148, 149];

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until<T>(f: () => T | undefined | null | false, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

export interface XDisplay {
  display: string;
  env: Record<string, string>;
  xvfb: ChildProcess;
  stop(): Promise<void>;
}

/** Xvfb `-screen 0 <screen>x24 -nolisten tcp -auth <cookie>` on the first free display of :140–:149. */
export async function startXvfb(dir: string, opts: { screen?: string; uid?: number; gid?: number } = {}): Promise<XDisplay> {
  for (const n of DISPLAYS) {
    if (fs.existsSync(`/tmp/.X${n}-lock`) || fs.existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    const auth = path.join(dir, `xauth-${n}`);
    const add = spawnSync('xauth', ['-f', auth, 'add', `:${n}`, '.', crypto.randomBytes(16).toString('hex')]);
    if (add.status !== 0) throw new Error(`xauth failed: ${add.stderr}`);
    if (opts.uid !== undefined) fs.chownSync(auth, opts.uid, opts.gid ?? opts.uid);
    const xvfb = spawn(XVFB, [`:${n}`, '-screen', '0', `${opts.screen ?? '1382x822'}x24`, '-nolisten', 'tcp', '-auth', auth, '-noreset'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      uid: opts.uid,
      gid: opts.gid,
    });
    let err = '';
    xvfb.stderr?.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    const socket = `/tmp/.X11-unix/X${n}`;
    const end = Date.now() + 5000;
    while (Date.now() < end && xvfb.exitCode === null && !fs.existsSync(socket)) await sleep(20);
    if (xvfb.exitCode !== null || !fs.existsSync(socket)) {
      xvfb.kill('SIGKILL');
      await exited(xvfb);
      if (/already active/.test(err)) continue;
      throw new Error(`Xvfb :${n} did not start: ${err}`);
    }
    const stop = async () => {
      if (xvfb.exitCode === null && xvfb.signalCode === null) {
        xvfb.kill('SIGTERM');
        const t = setTimeout(() => xvfb.kill('SIGKILL'), 2000);
        await exited(xvfb);
        clearTimeout(t);
      }
      for (const f of [`/tmp/.X${n}-lock`, socket]) fs.rmSync(f, { force: true });
    };
    return { display: `:${n}`, env: { DISPLAY: `:${n}`, XAUTHORITY: auth }, xvfb, stop };
  }
  throw new Error('no free display in :140–:149');
}

export interface ClientEvent {
  ev: string;
  [k: string]: unknown;
}

/** The test X client (xclient.py): a window of `geometry` painted on command, its input events recorded. */
export class XClient {
  readonly events: ClientEvent[] = [];
  private child: ChildProcess;
  private buf = '';

  private constructor(env: Record<string, string>, geometry: string) {
    this.child = spawn(PYTHON, [CLIENT, '--geometry', geometry], { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout?.on('data', (c: Buffer) => {
      this.buf += c.toString('utf8');
      const lines = this.buf.split('\n');
      this.buf = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.events.push(JSON.parse(line) as ClientEvent);
    });
  }

  static async start(env: Record<string, string>, geometry = '1280x720+51+51'): Promise<XClient> {
    const c = new XClient(env, geometry);
    await until(() => c.events.find((e) => e.ev === 'ready'), 5000, 'the test client window');
    return c;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  send(cmd: Record<string, unknown>): void {
    this.child.stdin?.write(`${JSON.stringify(cmd)}\n`);
  }

  /** Paints a solid rectangle (0xRRGGBB) in window coordinates; resolves once the X server has it. */
  async fill(x: number, y: number, w: number, h: number, rgb: number): Promise<void> {
    const id = crypto.randomUUID();
    this.send({ op: 'fill', x, y, w, h, rgb, id });
    await until(() => this.events.find((e) => e.ev === 'filled' && e.id === id), 5000, 'a fill');
  }

  /** Events of kind `ev` recorded after index `from`. */
  since(from: number, ev?: string): ClientEvent[] {
    return this.events.slice(from).filter((e) => ev === undefined || e.ev === ev);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.send({ op: 'quit' });
      const t = setTimeout(() => this.child.kill('SIGKILL'), 2000);
      await exited(this.child);
      clearTimeout(t);
    }
  }
}

/** The pixel (x, y) of a BGRX picture `width` wide as 0xRRGGBB. */
export function rgbAt(bgrx: Buffer, width: number, x: number, y: number): number {
  const i = (y * width + x) * 4;
  return (bgrx[i + 2] << 16) | (bgrx[i + 1] << 8) | bgrx[i];
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14, 15) in clock ticks of 1/100 s
}

/** SysV shm segments created by `pid` (/proc/sysvipc/shm's cpid column). */
export function shmSegmentsOf(pid: number): string[] {
  const lines = fs.readFileSync('/proc/sysvipc/shm', 'utf8').trim().split('\n').slice(1);
  return lines.filter((l) => l.trim().split(/\s+/)[4] === String(pid));
}

export { alive } from '../isolation';
