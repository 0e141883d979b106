/**
 * What the player reads: the current line and its typing clock, the backlog, which lines were
 * read before (skip mode passes only those), and the auto mode's timer. Typing and auto stand
 * still while an overlay is open (pause/resume). No DOM, no engine: the engine feeds it lines.
 */
import type { BacklogEntry } from './types';

export interface Line {
  speaker: string | null;
  name: string | null;
  color: string | null;
  text: string;
  chars: string[];
  /** When typing starts (ms, performance.now). */
  start: number;
  /** Shown completely (clicked, skipped, or restored). */
  instant: boolean;
  /** The player had read this line before. */
  read: boolean;
}

const MAX_BACKLOG = 200;

export class Reader {
  line: Line | null = null;
  backlog: BacklogEntry[] = [];
  lineCount = 0;
  /** Lines read in this page's life (speaker|text), across plays. */
  private readonly seen = new Set<string>();
  private pausedAt: number | null = null;
  private autoAt: number | null = null;

  /** `textSpeed`: characters per second; `autoDelay`: ms auto mode waits after a line. */
  constructor(
    readonly textSpeed: number,
    readonly autoDelay: number,
  ) {}

  /** A new play (what was read stays read). */
  reset(): void {
    this.pausedAt = null;
    this.line = null;
    this.backlog = [];
    this.lineCount = 0;
    this.autoAt = null;
  }

  /** Shows a line typing from `start` (empty text: the choices' line); text goes to the backlog. */
  show(speaker: string | null, name: string | null, color: string | null, text: string, start: number, instant: boolean): Line {
    const key = `${speaker ?? ''}|${text}`;
    const read = this.seen.has(key);
    if (text) this.seen.add(key);
    this.line = { speaker, name, color, text, chars: Array.from(text), start, instant, read };
    if (text) {
      this.lineCount++;
      this.backlog.push({ speaker, name, color, text });
      if (this.backlog.length > MAX_BACKLOG) this.backlog.splice(0, this.backlog.length - MAX_BACKLOG);
    }
    return this.line;
  }

  /** The player's choice, as the backlog shows it. */
  addChoice(text: string): void {
    this.backlog.push({ speaker: null, name: null, color: null, text, choice: true });
  }

  /** A save's backlog and line count; its last entry is the line about to be shown again. */
  restore(backlog: BacklogEntry[], lineCount: number, text: string): void {
    this.backlog = backlog.slice();
    if (backlog.length && backlog[backlog.length - 1].text === text) this.backlog.pop();
    this.lineCount = Math.max(0, lineCount - 1);
  }

  visibleCount(now = performance.now()): number {
    const l = this.line;
    if (!l) return 0;
    if (l.instant) return l.chars.length;
    const t = this.pausedAt ?? now;
    const n = Math.floor(((t - l.start) * this.textSpeed) / 1000);
    return Math.max(0, Math.min(l.chars.length, n));
  }

  typing(now = performance.now()): boolean {
    return !!this.line && this.visibleCount(now) < this.line.chars.length;
  }

  /** When the next character appears (ms, performance.now); Infinity when not typing or paused. */
  nextCharAt(now: number): number {
    const l = this.line;
    if (!l || this.pausedAt !== null || !this.typing(now)) return Infinity;
    return l.start + ((this.visibleCount(now) + 1) * 1000) / this.textSpeed;
  }

  /** When auto mode moves on (ms), once autoDue() has set it; null before that. */
  get autoNextAt(): number | null {
    return this.autoAt;
  }

  /** An overlay opened: typing and the auto timer stop (if not stopped already). */
  pause(now: number): void {
    if (this.pausedAt === null) this.pausedAt = now;
  }

  /** The last overlay closed: typing and the auto timer go on where they stopped. */
  resume(now: number): void {
    if (this.pausedAt === null) return;
    const d = now - this.pausedAt;
    this.pausedAt = null;
    if (this.line && !this.line.instant) this.line.start += d;
    if (this.autoAt !== null) this.autoAt += d;
  }

  /** Forget the pause without moving the clocks (a confirmed action replaces the screen). */
  dropPause(): void {
    this.pausedAt = null;
  }

  /** Auto mode restarts its wait (a new line, or auto switched on). */
  resetAuto(): void {
    this.autoAt = null;
  }

  /** Auto mode: whether the current (typed out) line has been shown long enough. */
  autoDue(now: number): boolean {
    const l = this.line;
    if (!l) return false;
    const doneAt = l.instant ? now : l.start + (l.chars.length * 1000) / this.textSpeed;
    if (this.autoAt === null) this.autoAt = Math.max(now, doneAt) + this.autoDelay + l.chars.length * 60;
    return now >= this.autoAt;
  }
}
