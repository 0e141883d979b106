/**
 * Signalling messages of the self-hosted webrtc provider: what travels over the api's
 * WebSocket (/v1/signal) between the player's page and the host's runtime page, both of which
 * hold a short-lived signal token bound to the session and the user (see server/api).
 * The api relays offer/answer/ice between the two peers of one session and adds peer events.
 */
export type SignalRole = 'player' | 'host';

export type SignalMessage =
  /** Relayed: the host's offer (the host publishes, so it always offers). */
  | { type: 'offer'; sdp: string }
  /** Relayed: the player's answer. */
  | { type: 'answer'; sdp: string }
  /** Relayed: a trickled ICE candidate (null = end of candidates). */
  | { type: 'ice'; candidate: RTCIceCandidateInit | null }
  /**
   * From the api: the other peer connected (the host offers on this). `peer` is the player page's
   * id (PEER_ID): the same id again is the same page whose signalling reconnected (an api replica
   * went away) — its connection may still be up, and the host does not replace it.
   */
  | { type: 'peer-joined'; role: SignalRole; peer?: string }
  /** From the api: the other peer went away. */
  | { type: 'peer-left'; role: SignalRole }
  /** From the api: the session ended or the token is no longer valid. */
  | { type: 'closed'; reason: string };

export const MAX_SIGNAL_CHARS = 64 * 1024;

/** A page's signalling id (`?peer=` on the signalling URL): random, URL-safe. */
export const PEER_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A fresh page id for PEER_ID. */
export function newPeerId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Parses one signalling frame; null for anything malformed. */
export function parseSignal(raw: unknown): SignalMessage | null {
  if (typeof raw !== 'string' || raw.length > MAX_SIGNAL_CHARS) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const m = v as Record<string, unknown>;
  switch (m.type) {
    case 'offer':
    case 'answer':
      return typeof m.sdp === 'string' && m.sdp.length > 0 ? { type: m.type, sdp: m.sdp } : null;
    case 'ice': {
      if (m.candidate === null) return { type: 'ice', candidate: null };
      const c = m.candidate as Record<string, unknown> | undefined;
      if (!c || typeof c !== 'object' || typeof c.candidate !== 'string') return null;
      return {
        type: 'ice',
        candidate: {
          candidate: c.candidate,
          sdpMid: typeof c.sdpMid === 'string' ? c.sdpMid : null,
          sdpMLineIndex: typeof c.sdpMLineIndex === 'number' ? c.sdpMLineIndex : null,
        },
      };
    }
    case 'peer-joined':
      if (m.role !== 'player' && m.role !== 'host') return null;
      return typeof m.peer === 'string' && PEER_ID.test(m.peer) ? { type: m.type, role: m.role, peer: m.peer } : { type: m.type, role: m.role };
    case 'peer-left':
      return m.role === 'player' || m.role === 'host' ? { type: m.type, role: m.role } : null;
    case 'closed':
      return { type: 'closed', reason: typeof m.reason === 'string' ? m.reason.slice(0, 64) : 'closed' };
    default:
      return null;
  }
}

/** Which frames a peer of each role may send (the api drops the rest). */
export function mayRelay(role: SignalRole, m: SignalMessage): boolean {
  if (m.type === 'ice') return true;
  return role === 'host' ? m.type === 'offer' : m.type === 'answer';
}
