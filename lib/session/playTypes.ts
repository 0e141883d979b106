/**
 * What the play's controller (playController.ts) hands the page: its snapshot (the step, the
 * stream, the connection, the failure…), what the stats overlay reads, and the callbacks it
 * calls (and the overlay's ping pace). Kept apart so the page's components can import them without the flow.
 */
import type { ConnectionState, ReceiverStats } from '@/lib/streaming/types';
import type { HostMessage } from '@/lib/streaming/messages';
import type { PlayFailure, PlayStep } from './playMessages';

export interface PlaySnapshot {
  step: PlayStep;
  sessionId: string | null;
  queuePosition: number | null;
  stream: MediaStream | null;
  connection: ConnectionState | null;
  reconnecting: boolean;
  idleSecondsLeft: number | null;
  failure: PlayFailure | null;
  /** Round-trip time of the last ping, ms. */
  rttMs: number | null;
}

/** What the stats overlay reads once a second while shown (components/play/stats/). */
export interface PlayStatsReading {
  /** The provider's reading; null before a connection or when it failed. */
  receiver: ReceiverStats | null;
  /** Round trip of the last ping/pong on the message channel (network and the host page), ms. */
  pingMs: number | null;
}

/** While the overlay reads, a ping goes with each reading at most this often (else every 5 s). */
export const STATS_PING_MS = 900;

export interface PlayCallbacks {
  onChange(s: PlaySnapshot): void;
  onHostMessage?(m: HostMessage): void;
}

/** A play before it starts. */
export const FIRST_SNAPSHOT: PlaySnapshot = {
  step: 'start',
  sessionId: null,
  queuePosition: null,
  stream: null,
  connection: null,
  reconnecting: false,
  idleSecondsLeft: null,
  failure: null,
  rttMs: null,
};
