/**
 * The game's text for the player (issue 13, docs/play-text.md): the engine's `line`, `choices`,
 * `chosen` and `cleared` events (runtime/src/flow.ts) become the protocol's `line` / `choices` /
 * `clear` messages, built within their size bound by lib/streaming/textMessages.ts
 * (`lineMessages`, `choicesMessage`, `clearMessage`) and numbered by `seq`. They leave through the
 * publisher's `send`, so the webrtc data channel, Agora RTM and TRTC SEI carry them alike.
 *
 * A message that cannot leave (no player connected yet, a reconnect, a full SEI queue) waits in
 * a bounded outbox, in order, and goes with the next message, at the next retry (every
 * TEXT_RETRY_MS while something waits: a TRTC SEI queue frees itself with the next video frames,
 * and a player reading the last line sends nothing that would carry it) or after `ready` (flush), which
 * also sends what the screen shows again with the `seq` it had — the current line and choices,
 * or the `clear` when the screen shows no line (the title, the ending card), never the line it
 * cleared (the player drops what it already has; on Agora a message sent before the player
 * subscribed is lost): a player who joins while a resumed save shows its line, or who comes back
 * after a reconnect, reads what the game shows. Nothing the player sends reaches this file.
 */
import type { HostMessage, TextMessage } from '../../../lib/streaming/messages';
import { choicesMessage, clearMessage, lineMessages } from '../../../lib/streaming/textMessages';
import type { YumecastApi } from '../../../runtime/src/main';

/** Messages kept for a player who is not there (the newest; older ones are dropped first). */
export const TEXT_OUTBOX_MAX = 64;
/** While messages wait, the relay tries to send them again this often. */
export const TEXT_RETRY_MS = 500;

type Send = (msg: HostMessage) => boolean;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export class TextRelay {
  private seq = 0;
  private outbox: TextMessage[] = [];
  /** What the screen shows now: the last line's parts (or the `clear`: no line), then the choices on offer. */
  private line: TextMessage[] = [];
  private choices: TextMessage | null = null;
  /** The next retry of what waits (none while the outbox is empty or the relay detached). */
  private retry: ReturnType<typeof setTimeout> | null = null;
  private detached = false;
  /** Text messages sent, and dropped from a full outbox (for tests and logs). */
  sent = 0;
  dropped = 0;

  constructor(private readonly send: Send) {}

  /** Listens to the engine's text events; returns the unsubscribe. */
  attach(y: Pick<YumecastApi, 'on'>): () => void {
    const offs = [
      y.on('line', (p) => this.onLine(p, false)),
      y.on('chosen', (p) => this.onLine(p, true)),
      y.on('choices', (p) => this.onChoices(p)),
      y.on('cleared', () => this.onCleared()),
    ];
    return () => {
      offs.forEach((off) => off());
      this.detached = true;
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
    };
  }

  /** A line shown (`line`: {name, text}) or the choice taken (`chosen`: {text}). */
  onLine(payload: unknown, choice: boolean): void {
    const p = (payload ?? {}) as Record<string, unknown>;
    const text = str(p.text);
    if (!text) return;
    const msgs = lineMessages(++this.seq, choice ? null : str(p.name), text, choice);
    this.line = msgs;
    // a line (or the choice taken) ends the choices on offer
    this.choices = null;
    for (const m of msgs) this.out(m);
  }

  /** The choices on offer ([{index, text}], in the order the digit keys pick them). */
  onChoices(payload: unknown): void {
    const list = Array.isArray(payload) ? payload.map((c) => str((c as Record<string, unknown> | null)?.text) ?? '…') : [];
    const msg = choicesMessage(++this.seq, list);
    this.choices = msg.choices.length ? msg : null;
    this.out(msg);
  }

  /** The screen shows no line any more (title, ending, a new play): `clear`, which also ends the choices. */
  onCleared(): void {
    const msg = clearMessage(++this.seq);
    this.line = [msg];
    this.choices = null;
    this.out(msg);
  }

  /** The player is there (`ready` went out): what waited, then what the screen shows now. */
  flush(): void {
    for (const m of [...this.line, ...(this.choices ? [this.choices] : [])]) if (!this.outbox.includes(m)) this.outbox.push(m);
    this.drain();
  }

  private out(msg: TextMessage): void {
    this.outbox.push(msg);
    if (this.outbox.length > TEXT_OUTBOX_MAX) {
      this.outbox.shift();
      this.dropped++;
    }
    this.drain();
  }

  /** Sends in order what waits, until the publisher refuses one (it stays first in line, and is tried again in TEXT_RETRY_MS). */
  private drain(): void {
    while (this.outbox.length > 0 && this.send(this.outbox[0])) {
      this.outbox.shift();
      this.sent++;
    }
    if (this.outbox.length > 0 && !this.retry && !this.detached) {
      this.retry = setTimeout(() => {
        this.retry = null;
        this.drain();
      }, TEXT_RETRY_MS);
    }
  }
}
