/**
 * The native stream's agent end (issue 15): a WebSocket route on the pages' loopback origin
 * (page-server.ts, NATIVE_STREAM_PATH) that a runtime page playing a native title opens with its
 * session's key. It carries the game's changed pictures and its sound to the page, and the
 * player's input back (stream-protocol.ts defines every message). A key is 32 random bytes made
 * per session; without a live one the socket is closed at once, so another runtime page (or
 * anything else on the machine) gets nothing.
 * Input from the page was validated by the bridge; it is parsed again here with the same
 * protocol module (lib/streaming/messages.ts) before it reaches X: only pointer, key and wheel pass;
 * anything else is dropped without a count (the bridge, before it, counts the player's inputs and
 * malformed messages: the session's `counters` in the host's GET /sessions/:id).
 * When the page falls behind (a socket buffering more than MAX_BUFFERED), picture updates are
 * dropped and one whole picture is asked for once it has caught up, so the page's picture is
 * never left half-patched.
 */
import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { isInputMessage, parsePlayerMessage } from '../../../lib/streaming/messages';
import { NATIVE_STREAM_PATH } from '../page-paths';
import type { NativeGame } from './game';
import { AUDIO_CHANNELS, AUDIO_RATE, encodeAudio, encodeFrame, type NativeHello, type NativeText } from './stream-protocol';
import type { NativeTextEvent } from './text';
import type { FrameUpdate } from './xhelper';

/** Bytes a page may have unread before picture updates are dropped (a few whole pictures). */
const MAX_BUFFERED = 16 * 1024 * 1024;
/** Sound is dropped beyond this (a fraction of a second): late sound is worse than a gap. */
const MAX_BUFFERED_AUDIO = 512 * 1024;
const KEY_RE = /^[A-Za-z0-9_-]{43}$/;

interface Entry {
  game: NativeGame;
  socket: WebSocket | null;
  detach: (() => void) | null;
}

export class NativeStreams {
  private readonly byKey = new Map<string, Entry>();

  /** A fresh key for this game's stream (the page gets it in its bridge config). */
  add(game: NativeGame): string {
    const key = randomBytes(32).toString('base64url');
    this.byKey.set(key, { game, socket: null, detach: null });
    return key;
  }

  remove(key: string): void {
    const e = this.byKey.get(key);
    if (!e) return;
    this.byKey.delete(key);
    e.detach?.();
    e.socket?.close(1000, 'ended');
  }

  /** The route, on the pages' server (before it listens). */
  async register(app: FastifyInstance): Promise<void> {
    await app.register(websocket, { options: { maxPayload: 4096 } });
    app.get(
      NATIVE_STREAM_PATH,
      { websocket: true, schema: { querystring: { type: 'object', properties: { key: { type: 'string', maxLength: 64 } }, additionalProperties: false } } },
      (socket, req) => {
        const key = (req.query as { key?: string }).key ?? '';
        const e = KEY_RE.test(key) ? this.byKey.get(key) : undefined;
        if (!e) {
          socket.close(1008, 'unknown key');
          return;
        }
        this.attach(e, socket);
      },
    );
  }

  private attach(e: Entry, socket: WebSocket): void {
    // one page per session: a new connection replaces the old one
    e.detach?.();
    e.socket?.close(1000, 'replaced');
    e.socket = socket;
    const { game } = e;
    const helper = game.helper;
    const hello: NativeHello = { type: 'hello', width: helper?.info.width ?? 0, height: helper?.info.height ?? 0, sampleRate: AUDIO_RATE, channels: AUDIO_CHANNELS };
    socket.send(JSON.stringify(hello));
    // the page starts from a whole picture: partial updates before it are dropped
    let needFull = true;
    let drain: ReturnType<typeof setInterval> | null = null;
    const onFrame = (u: FrameUpdate) => {
      if (socket.bufferedAmount > MAX_BUFFERED) {
        needFull = true;
        // a still picture sends nothing more: ask for the whole one as soon as the page has caught up
        drain ??= setInterval(() => {
          if (socket.bufferedAmount > MAX_BUFFERED) return;
          clearInterval(drain!);
          drain = null;
          helper?.full();
        }, 50);
        return;
      }
      if (needFull && !u.full) {
        helper?.full();
        return;
      }
      needFull = false;
      socket.send(encodeFrame(u.seq, u.bands));
    };
    const onAudio = (pcm: Buffer) => {
      if (socket.bufferedAmount > MAX_BUFFERED_AUDIO) return;
      socket.send(encodeAudio(pcm));
    };
    const onText = (t: NativeTextEvent) => {
      const msg: NativeText = { type: 'text', event: t.event, payload: t.payload };
      socket.send(JSON.stringify(msg));
    };
    // what the game shows now, then what it shows next
    for (const t of [game.shown.line, game.shown.choices]) if (t) onText(t);
    game.on('frame', onFrame);
    game.on('audio', onAudio);
    game.on('text', onText);
    e.detach = () => {
      game.off('frame', onFrame);
      game.off('audio', onAudio);
      game.off('text', onText);
      if (drain) clearInterval(drain);
      drain = null;
    };
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        return;
      }
      if ((raw as { type?: unknown })?.type === 'full' && Object.keys(raw as object).length === 1) {
        helper?.full();
        return;
      }
      const m = parsePlayerMessage(raw);
      if (!m || !isInputMessage(m)) return;
      game.input(m);
    });
    socket.on('close', () => {
      if (e.socket !== socket) return;
      e.detach?.();
      e.detach = null;
      e.socket = null;
    });
    // the page starts from a whole picture
    helper?.full();
  }
}
