/**
 * The message half of the trtc provider. trtc-js-sdk 4.x has no data channel and no custom
 * messages (sendCustomMessage arrived with the v5 SDK), so messages ride in the SEI of the
 * sender's published video: the host's game video towards the player, and a tiny "carrier"
 * video the player publishes for its input (carrier.ts). SEI is best-effort (a lost frame loses
 * its SEI) and limited to 1000 bytes per message and 30 messages per second per sender: this
 * sender paces to that limit, and when input outruns it, a pointer move still waiting is
 * replaced by the newer one (downs, ups, keys and wheel are never dropped for pacing).
 */

/** User-defined SEI payload type of our messages (TRTC accepts 5 and 243; 5 needs a UUID prefix). */
export const SEI_PAYLOAD_TYPE = 243;
export const SEI_MAX_BYTES = 1000;
export const SEI_MAX_PER_SECOND = 30;
/** Messages that may wait for their slot; past this the sender refuses (send() → false). */
export const SEI_QUEUE_MAX = 64;

const SLOT_MS = Math.ceil(1000 / SEI_MAX_PER_SECOND);

interface Pending {
  bytes: Uint8Array;
  /** Pending messages with the same key replace each other (pointer moves). */
  coalesceKey: string | null;
}

export interface SeiSenderOptions {
  /** Hands one message to the SDK (client.sendSEIMessage). */
  sendSei(buffer: ArrayBuffer): void;
  /** Makes the carrying video produce a frame soon, so the SEI leaves now. */
  kick?(): void;
  now?(): number;
}

/** The coalescing key of a message: only pointer moves coalesce. */
export function coalesceKeyOf(msg: { type: string; kind?: string }): string | null {
  return msg.type === 'pointer' && msg.kind === 'move' ? 'pointer-move' : null;
}

export class SeiSender {
  private readonly queue: Pending[] = [];
  private lastSent = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly o: SeiSenderOptions) {
    this.now = o.now ?? (() => Date.now());
  }

  /** Queues one JSON text; false when it is too large, the queue is full or the sender closed. */
  push(text: string, coalesceKey: string | null = null): boolean {
    if (this.closed) return false;
    const bytes = new TextEncoder().encode(text);
    if (bytes.byteLength > SEI_MAX_BYTES) return false;
    const last = this.queue[this.queue.length - 1];
    if (coalesceKey !== null && last?.coalesceKey === coalesceKey) {
      last.bytes = bytes;
      return true;
    }
    if (this.queue.length >= SEI_QUEUE_MAX) return false;
    this.queue.push({ bytes, coalesceKey });
    this.pump();
    return true;
  }

  private pump(): void {
    if (this.timer !== null || this.closed) return;
    const wait = this.lastSent + SLOT_MS - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, wait);
      return;
    }
    const next = this.queue.shift();
    if (!next) return;
    this.lastSent = this.now();
    try {
      const buffer = next.bytes.buffer.slice(next.bytes.byteOffset, next.bytes.byteOffset + next.bytes.byteLength) as ArrayBuffer;
      this.o.sendSei(buffer);
      this.o.kick?.();
    } catch {
      // not published yet or SEI unsupported in this browser: the message is lost, as on a lost frame
    }
    if (this.queue.length > 0) this.pump();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Asks a canvas capture track for a frame now (a still canvas sends none, and so no SEI). */
export function requestFrameOf(track: MediaStreamTrack | undefined): void {
  const t = track as (MediaStreamTrack & { requestFrame?: () => void }) | undefined;
  t?.requestFrame?.();
}
