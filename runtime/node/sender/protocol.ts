/**
 * The messages between the light runtime's engine process (runtime/node/sender.ts) and its sender
 * (sender.py: GStreamer's webrtcbin), one JSON object a line on the sender's stdin and stdout:
 * the one definition of them. The frames do not travel here: the engine writes each picture into
 * the frames file's slot (FRAME_SLOTS of them, RGBA) and says which with `frame`.
 */
import type { SignalMessage } from '../../../lib/streaming/signal';

/** Slots in the frames file: the engine writes one while the sender may still read the other. */
export const FRAME_SLOTS = 2;

type IceMessage = Extract<SignalMessage, { type: 'ice' }>;

/** Engine → sender. */
export type ToSender =
  /** A player joined: a fresh connection, and its offer. */
  | { type: 'offer' }
  | { type: 'answer'; sdp: string }
  | IceMessage
  /** The picture in `slot` is ready to send. */
  | { type: 'frame'; slot: number }
  /** A host message (lib/streaming/messages.ts HostMessage, as JSON) on the input channel. */
  | { type: 'send'; data: string }
  /** The encoder's target (bit/s; the quality profile's). */
  | { type: 'bitrate'; bps: number }
  | { type: 'quit' };

/** Sender → engine. */
export type FromSender =
  | { type: 'ready' }
  | { type: 'offer'; sdp: string }
  | IceMessage
  | { type: 'state'; state: 'new' | 'connecting' | 'connected' | 'disconnected' | 'failed' | 'closed' }
  | { type: 'channel'; state: 'open' | 'closed' }
  /** What the player sent on the input channel (raw; the engine validates it). */
  | { type: 'message'; data: string }
  | { type: 'error'; message: string };

/** One line from the sender, checked; null for anything else. */
export function parseFromSender(line: string): FromSender | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const m = v as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'offer':
      return typeof m.sdp === 'string' ? { type: 'offer', sdp: m.sdp } : null;
    case 'ice': {
      const c = m.candidate as Record<string, unknown> | null | undefined;
      if (c === null) return { type: 'ice', candidate: null };
      if (!c || typeof c.candidate !== 'string') return null;
      return { type: 'ice', candidate: { candidate: c.candidate, sdpMLineIndex: typeof c.sdpMLineIndex === 'number' ? c.sdpMLineIndex : 0 } };
    }
    case 'state':
      return typeof m.state === 'string' && ['new', 'connecting', 'connected', 'disconnected', 'failed', 'closed'].includes(m.state) ? { type: 'state', state: m.state as 'new' } : null;
    case 'channel':
      return m.state === 'open' || m.state === 'closed' ? { type: 'channel', state: m.state } : null;
    case 'message':
      return typeof m.data === 'string' ? { type: 'message', data: m.data } : null;
    case 'error':
      return { type: 'error', message: String(m.message ?? '') };
    default:
      return null;
  }
}
