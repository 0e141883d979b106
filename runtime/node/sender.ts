/**
 * The light runtime's sender, from the engine's side (docs/light-runtime.md, slice 2): starts
 * sender.py (GStreamer's webrtcbin: VP8 + Opus, the "input" data channel) as a child process,
 * writes each frame the engine draws into the frames file's next slot and says so, re-sends the
 * last one every REFRESH_MS while the picture is still (as the page's frames.ts refreshes its
 * track: a receiver's decoder and jitter buffer stay healthy), and relays the connection's
 * signalling and the channel's messages as events. The wire between the two is
 * sender/protocol.ts; the signalling's own messages are lib/streaming/signal.ts's.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { REFRESH_MS } from '../src/frames';
import { FRAME_SLOTS, parseFromSender, type FromSender, type ToSender } from './sender/protocol';

/** How long close() waits for the sender to quit before it is killed (ms). */
const QUIT_MS = 2000;
/** How long start() waits for the sender's `ready` (ms): GStreamer's plugins load on its first start. */
const READY_MS = 20_000;

export interface LightSenderOptions {
  width: number;
  height: number;
  /** A folder of the session's own (the frames file goes there). */
  dir: string;
  /** The encoder's target (bit/s); default the `high` quality profile's maxBitrate. */
  bitrate?: number;
  /** VP8's speed (libvpx cpu-used; default -6, the page's encoder's). */
  cpuUsed?: number;
  /** A STUN server (`stun://host:port`), if any. */
  stun?: string;
  /** TURN servers (`turn://user:pass@host:port`). */
  turn?: string[];
  /** sender.py's path: default beside this file (a bundled engine process names it, its own folder being elsewhere). */
  script?: string;
  /** The Python that has GStreamer's introspection (python3-gi): Debian's, /usr/bin/python3 by default (not a pyenv one). */
  python?: string;
}

export type SenderEvent = Exclude<FromSender, { type: 'ready' }>;

export class LightSender {
  private slot = 0;
  private lastSlot = -1;
  private refresh: ReturnType<typeof setInterval> | null = null;
  private lastFrameAt = 0;
  private closed = false;
  /** Frames handed over (drawn + refreshes). */
  framesSent = 0;
  private readonly listeners = new Set<(e: SenderEvent) => void>();

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, null>,
    private readonly fd: number,
    private readonly file: string,
    private readonly size: number,
  ) {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const m = parseFromSender(line);
      if (m && m.type !== 'ready') for (const fn of this.listeners) fn(m);
    });
    this.refresh = setInterval(() => {
      if (this.lastSlot >= 0 && performance.now() - this.lastFrameAt >= REFRESH_MS) this.notify(this.lastSlot);
    }, REFRESH_MS / 2);
  }

  /** Starts the sender and waits until it is ready (rejects if it cannot start). */
  static async start(o: LightSenderOptions): Promise<LightSender> {
    const size = o.width * o.height * 4;
    const file = path.join(o.dir, 'frames.rgba');
    const fd = fs.openSync(file, 'w+', 0o600);
    fs.ftruncateSync(fd, size * FRAME_SLOTS);
    const config = JSON.stringify({ bitrate: o.bitrate ?? 4_000_000, cpuUsed: o.cpuUsed ?? -6, stun: o.stun, turn: o.turn ?? [] });
    const script = o.script ?? path.join(__dirname, 'sender', 'sender.py');
    // the config holds the session's TURN credentials: in the environment (readable by its user only), not the command line
    const child = spawn(o.python ?? '/usr/bin/python3', [script, file, String(o.width), String(o.height)], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, YUMECAST_SENDER_CONFIG: config } });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the sender did not start')), READY_MS);
      const rl = readline.createInterface({ input: child.stdout });
      rl.once('line', (line) => {
        clearTimeout(timer);
        rl.close();
        if (parseFromSender(line)?.type === 'ready') resolve();
        else reject(new Error(`the sender said ${line.slice(0, 200)}`));
      });
      child.once('exit', (code) => reject(new Error(`the sender exited (${code})`)));
      child.once('error', reject);
    });
    try {
      await ready;
    } catch (e) {
      child.kill('SIGKILL');
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      throw e;
    }
    return new LightSender(child, fd, file, size);
  }

  /** The sender's process id (the session accounts for it and kills it with the session). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  on(fn: (e: SenderEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Hands over a frame: the picture's RGBA pixels (the engine's pixels(): read now, before its next draw). */
  frame(pixels: Buffer): void {
    if (this.closed || pixels.length !== this.size) return;
    const slot = this.slot;
    this.slot = (this.slot + 1) % FRAME_SLOTS;
    fs.writeSync(this.fd, pixels, 0, this.size, slot * this.size);
    this.lastSlot = slot;
    this.lastFrameAt = performance.now();
    this.notify(slot);
  }

  private notify(slot: number): void {
    this.framesSent++;
    this.send({ type: 'frame', slot });
  }

  send(m: ToSender): void {
    if (this.closed || !this.child.stdin.writable) return;
    this.child.stdin.write(`${JSON.stringify(m)}\n`);
  }

  /** Asks the sender to quit, kills it if it does not, and removes the frames file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.send({ type: 'quit' });
    this.closed = true;
    if (this.refresh) clearInterval(this.refresh);
    this.child.stdin.end();
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.child.kill('SIGKILL');
          resolve();
        }, QUIT_MS);
        this.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }
}
