/**
 * A native game's text (issue 15 with issue 13's transcript): our Ren'Py overlay appends each line
 * shown and each menu's choices as JSON lines to a file in the session's run folder
 * (YUMECAST_TEXT_FILE, renpy/overlay/yumecast_overlay.rpy). This reads what is appended, checks
 * each record's shape and bounds, and hands on the events the runtime page's engine gives the
 * bridge's TextRelay (`line` {name, text}, `choices` [{index, text}], `chosen` {text}, `cleared`:
 * the main menu or a load); the page then sends the protocol's `line` / `choices` / `clear`
 * messages as for every title. A record that is not one of
 * those shapes is dropped and counted: the file is written by the game's process.
 * The file is followed by a watch on its folder (inotify: a line reaches the page as soon as it is
 * written). A poll only backs that up: every SAFETY_POLL_MS beside a working watch (an event the
 * watch missed costs a line at most that long), every FALLBACK_POLL_MS where the folder cannot be
 * watched (fs.watch throws or fails later).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openRegularFile } from './isolation';

/** The engine event a record becomes (the same payloads as the VN engine's, runtime/src/types.ts EngineEvent). */
export type NativeTextEvent =
  | { event: 'line'; payload: { name: string | null; text: string } }
  | { event: 'choices'; payload: { index: number; text: string }[] }
  | { event: 'chosen'; payload: { text: string } }
  /** No line on screen any more (Ren'Py's main menu, a load): the VN engine's `cleared`. */
  | { event: 'cleared'; payload: null };

/** Bounds: a line, a name, a choice and how many choices (the protocol trims further). */
const MAX_TEXT = 4000;
const MAX_NAME = 200;
const MAX_CHOICES = 20;
/** Bytes read at most per change (a runaway writer cannot make the agent read without end). */
const MAX_READ = 256 * 1024;
/** The poll beside a working folder watch: a safety net only. */
export const SAFETY_POLL_MS = 5000;
/** The poll where the folder cannot be watched: the only way lines arrive. */
export const FALLBACK_POLL_MS = 500;

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, max) : null);

/** One record of the file as an event, or null when it is not one of the overlay's shapes. */
export function parseTextRecord(line: string): NativeTextEvent | null {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!r || typeof r !== 'object') return null;
  if (r.t === 'line') {
    const t = text(r.text, MAX_TEXT);
    return t ? { event: 'line', payload: { name: r.name === null ? null : text(r.name, MAX_NAME), text: t } } : null;
  }
  if (r.t === 'clear') return { event: 'cleared', payload: null };
  if (r.t === 'chosen') {
    const t = text(r.text, MAX_TEXT);
    return t ? { event: 'chosen', payload: { text: t } } : null;
  }
  if (r.t === 'choices' && Array.isArray(r.choices)) {
    return { event: 'choices', payload: r.choices.slice(0, MAX_CHOICES).map((c, index) => ({ index, text: text(c, MAX_TEXT) ?? '…' })) };
  }
  return null;
}

/** Follows the file from its start: each complete JSON line appended becomes an event. */
export class TextTail {
  private offset = 0;
  private rest = '';
  private watcher: fs.FSWatcher | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  dropped = 0;

  constructor(
    private readonly file: string,
    private readonly onEvent: (e: NativeTextEvent) => void,
  ) {}

  start(): void {
    // the file appears when the game shows its first line: watch its folder
    try {
      this.watcher = fs.watch(path.dirname(this.file), () => this.read());
      this.watcher.on('error', () => {
        if (this.watcher) this.unwatched();
      });
      this.poll(SAFETY_POLL_MS);
    } catch {
      this.unwatched();
    }
  }

  /** The watch failed (or could not start): poll often instead. */
  private unwatched(): void {
    this.watcher?.close();
    this.watcher = null;
    this.poll(FALLBACK_POLL_MS);
  }

  private poll(ms: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => this.read(), ms);
  }

  read(): void {
    // the file is in the game's folder: never follow a link out of it, never wait on a FIFO
    const fd = openRegularFile(this.file);
    if (fd === null) return;
    try {
      const buf = Buffer.alloc(MAX_READ);
      const n = fs.readSync(fd, buf, 0, MAX_READ, this.offset);
      if (n <= 0) return;
      this.offset += n;
      const lines = (this.rest + buf.subarray(0, n).toString('utf8')).split('\n');
      this.rest = lines.pop() ?? '';
      if (this.rest.length > MAX_READ) this.rest = '';
      for (const l of lines) {
        if (!l.trim()) continue;
        const e = parseTextRecord(l);
        if (e) this.onEvent(e);
        else this.dropped++;
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
