/**
 * A native game's saves on the server (issue 15): Ren'Py writes its saves as files in the session's
 * save folder (`--savedir`: `1-1-LT1.save`, `auto-1-LT1.save`, `quick-1-LT1.save`, `persistent`).
 * Each file is kept as one save slot of the player for the title, in the same saves storage as the
 * web engine's slots (the api's host-only save route): slot `rp-<name>` (lower case), state
 * `{ format: 'renpy-file', name, data: base64 }`. The files go up as Ren'Py writes them (watched,
 * debounced) and once more at the end; the next session of that player and title gets them back
 * in its folder before the game starts.
 * The files are Python pickles: they are only ever written back by the host, from what the host
 * itself collected (the save route takes the host's secret; a player cannot upload one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SAVE_SLOT_PATTERN } from '../../shared/host-contract';
import { openRegularFile } from './isolation';

export const RENPY_SAVE_FORMAT = 'renpy-file';
/** What Ren'Py names its save files (and its persistent data). */
const FILE_RE = /^(?:[A-Za-z0-9_-]{1,24}\.save|persistent)$/;
const SLOT_RE = new RegExp(SAVE_SLOT_PATTERN);
/** The api takes a save body of at most 512 kB of JSON: base64 of this many bytes fits with room. */
export const MAX_SAVE_FILE_BYTES = 360 * 1024;
const DEBOUNCE_MS = 400;

export interface SaveFile {
  name: string;
  data: Buffer;
}

/** The slot a save file is kept under, or null when the name is not one of Ren'Py's. */
export function slotForFile(name: string): string | null {
  if (!FILE_RE.test(name)) return null;
  const slot = `rp-${name.replace(/\.save$/, '').toLowerCase()}`;
  return SLOT_RE.test(slot) ? slot : null;
}

/** The files among a start request's saves (anything else, e.g. the web engine's slots, is skipped). */
export function filesFromSaves(saves: readonly { slot: string; state: Record<string, unknown> }[] | undefined): SaveFile[] {
  const out: SaveFile[] = [];
  for (const s of saves ?? []) {
    const st = s.state;
    if (st.format !== RENPY_SAVE_FORMAT || typeof st.name !== 'string' || typeof st.data !== 'string') continue;
    if (slotForFile(st.name) !== s.slot) continue;
    const data = Buffer.from(st.data, 'base64');
    if (data.length > 0 && data.length <= MAX_SAVE_FILE_BYTES) out.push({ name: st.name, data });
  }
  return out;
}

type Upload = (slot: string, state: Record<string, unknown>) => Promise<void>;
type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

/** Watches a save folder and uploads each changed file; flush() uploads what changed since. */
export class SaveCollector {
  private readonly sent = new Map<string, string>();
  private watcher: fs.FSWatcher | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly upload: Upload,
    private readonly log: Log,
    restored: readonly SaveFile[] = [],
  ) {
    // what was restored is already on the server
    for (const f of restored) this.sent.set(f.name, f.data.toString('base64'));
  }

  start(): void {
    try {
      this.watcher = fs.watch(this.dir, () => this.schedule());
      this.watcher.on('error', () => undefined);
    } catch (e) {
      this.log('warn', `saves: cannot watch ${this.dir}: ${(e as Error).message}; saves go up at the end only`);
    }
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), DEBOUNCE_MS);
  }

  /** Uploads every file that changed since its last upload (serialised: one pass at a time). */
  flush(): Promise<void> {
    this.running = this.running.then(() => this.pass());
    return this.running;
  }

  private async pass(): Promise<void> {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const slot = slotForFile(name);
      if (!slot) continue;
      // written by the game's process: read through openRegularFile (no link followed, no FIFO)
      const fd = openRegularFile(path.join(this.dir, name));
      if (fd === null) continue;
      let data: Buffer;
      try {
        const size = fs.fstatSync(fd).size;
        if (size === 0) continue;
        if (size > MAX_SAVE_FILE_BYTES) {
          this.log('warn', `saves: ${name} is ${size} bytes, over ${MAX_SAVE_FILE_BYTES}: not kept`);
          continue;
        }
        data = Buffer.alloc(size);
        if (fs.readSync(fd, data, 0, size, 0) !== size) continue;
      } catch {
        continue;
      } finally {
        fs.closeSync(fd);
      }
      const b64 = data.toString('base64');
      if (this.sent.get(name) === b64) continue;
      try {
        await this.upload(slot, { format: RENPY_SAVE_FORMAT, name, data: b64 });
        this.sent.set(name, b64);
      } catch (e) {
        this.log('warn', `saves: ${name} not kept: ${(e as Error).message}`);
      }
    }
  }

  /** Stops watching; the last flush() runs after. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watcher?.close();
    this.watcher = null;
  }
}
