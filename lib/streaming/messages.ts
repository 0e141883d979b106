/**
 * The streaming protocol's messages: THE one definition of what travels between the player's
 * browser and the game host, over the data channel (webrtc) or the message channel (agora RTM /
 * trtc). One JSON object per message, versioned with `v`. Both sides import this file.
 *
 * - player → host: pointer, key, wheel, quality, screenshot, ping.
 * - host → player: ready, pong, screenshot-saved, idle-warning, bye, error, and the game's text:
 *   line, choices, clear (issue 13, docs/play-text.md).
 *
 * The host treats every player message as hostile: `parsePlayerMessage` accepts only the exact
 * shapes below (no extra fields, finite numbers, coordinates in 0..1, named keys only, short
 * ids) and returns null for anything else, which the host drops and counts. A `RateLimiter`
 * (token bucket, rateLimiter.ts) drops floods before they reach the game.
 *
 * The game's text (`line`, `choices`) is the one host → player message whose size the story
 * decides. Its bound is decided on the host, once, here; `lineMessages` / `choicesMessage` (textMessages.ts) build
 * every text message so that its JSON is at most MAX_TEXT_MESSAGE_BYTES (960) bytes of UTF-8 —
 * under TRTC's SEI limit of 1000 bytes a message (trtc/sei.ts), far under Agora RTM's and the
 * data channel's, and under MAX_MESSAGE_CHARS (1024 characters), which both parsers keep for
 * every message. A long line is SPLIT into up to MAX_LINE_PARTS parts (same `seq`, `part` of
 * `parts`; the player joins them) rather than cut; only a line past MAX_LINE_PARTS parts (about
 * 2000 characters, no VN line is) and a choice past MAX_CHOICE_CHARS are truncated with '…'.
 * Control characters become spaces on the host; `parseHostMessage` refuses them, like any field
 * over its bound, so the player never renders more than these bounds.
 */

export const PROTOCOL_VERSION = 1 as const;

/** Largest raw message (JSON text) either side accepts, in characters. */
export const MAX_MESSAGE_CHARS = 1024;
/** Largest id (screenshot request id) a player may send. */
export const MAX_ID_CHARS = 64;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
const DIGITS = '0123456789'.split('');

/**
 * Keys a player may send. Physical keys by their `KeyboardEvent.key`-like names (Space for ' '),
 * letters in lower case, digits; plus VN commands a player UI can send as buttons.
 */
export const NAMED_KEYS = [
  'Enter',
  'Space',
  'Escape',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Backspace',
  'Control',
  'PageUp',
  'PageDown',
  ...LETTERS,
  ...DIGITS,
  /** VN commands (buttons of the player UI): */
  'Backlog',
  'Auto',
  'Skip',
  'Save',
  'Load',
  'Menu',
] as const;
export type NamedKey = (typeof NAMED_KEYS)[number];
const NAMED_KEY_SET: ReadonlySet<string> = new Set(NAMED_KEYS);

export const QUALITY_LEVELS = ['high', 'medium', 'low'] as const;
export type QualityLevel = (typeof QUALITY_LEVELS)[number];

/** 0 = primary (left / touch), 1 = middle, 2 = secondary (right). */
export type PointerButton = 0 | 1 | 2;

export interface PointerMessage {
  v: 1;
  type: 'pointer';
  kind: 'down' | 'up' | 'move';
  /** 0..1 from the left edge of the video. */
  x: number;
  /** 0..1 from the top edge of the video. */
  y: number;
  button?: PointerButton;
}
export interface KeyMessage {
  v: 1;
  type: 'key';
  kind: 'down' | 'up';
  key: NamedKey;
}
export interface WheelMessage {
  v: 1;
  type: 'wheel';
  /** Positive scrolls down (towards newer text), negative up (towards the backlog); pixels. */
  dy: number;
}
export interface QualityMessage {
  v: 1;
  type: 'quality';
  level: QualityLevel;
}
export interface ScreenshotMessage {
  v: 1;
  type: 'screenshot';
  requestId: string;
}
export interface PingMessage {
  v: 1;
  type: 'ping';
  /** The sender's clock (ms); echoed in pong. */
  t: number;
}
export type PlayerMessage =
  | PointerMessage
  | KeyMessage
  | WheelMessage
  | QualityMessage
  | ScreenshotMessage
  | PingMessage;
/** The messages that are game input (what the VN engine's applyInput takes). */
export type InputMessage = PointerMessage | KeyMessage | WheelMessage;

export const BYE_REASONS = [
  /** No input for too long (after an idle-warning). */
  'idle_timeout',
  /** The player's tab stayed in the background too long. */
  'background_timeout',
  /** The player or the API closed the session. */
  'session_closed',
  /** The same user started a session elsewhere. */
  'replaced',
  /** The game reached its end and the session was closed. */
  'game_over',
  /** The host is shutting down or draining. */
  'host_shutdown',
  /** Something failed on the host. */
  'error',
] as const;
export type ByeReason = (typeof BYE_REASONS)[number];

export const HOST_ERROR_CODES = [
  /** The player sent too many messages; some were dropped. */
  'rate_limited',
  /** A message was malformed and dropped. */
  'bad_message',
  /** The screenshot could not be taken or stored. */
  'screenshot_failed',
  /** The screenshot limit for this session or user is reached. */
  'screenshot_limit',
  /** The game runtime failed. */
  'runtime_error',
  'internal',
] as const;
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];

export interface ReadyMessage {
  v: 1;
  type: 'ready';
}
export interface PongMessage {
  v: 1;
  type: 'pong';
  t: number;
}
export interface ScreenshotSavedMessage {
  v: 1;
  type: 'screenshot-saved';
  requestId: string;
  screenshotId: string;
}
export interface IdleWarningMessage {
  v: 1;
  type: 'idle-warning';
  secondsLeft: number;
}
export interface ByeMessage {
  v: 1;
  type: 'bye';
  reason: ByeReason;
}
export interface HostErrorMessage {
  v: 1;
  type: 'error';
  code: HostErrorCode;
  /** Only for screenshot failures: which request failed. */
  requestId?: string;
}
/**
 * A line the game shows (or, with `choice`, the choice the player took, as the game's backlog
 * shows it). `seq` numbers the session's text messages (lines, choices, clears) from 1, in the
 * order shown; a resend (after a reconnect) carries the same `seq`. A long line comes in `parts`
 * messages with the same `seq` and speaker, `part` 0..parts-1; its text is the parts joined.
 */
export interface LineMessage {
  v: 1;
  type: 'line';
  seq: number;
  /** The speaker's display name, or null for narration (and choices). */
  speaker: string | null;
  /** This part's text (non-empty, no control characters). */
  text: string;
  part: number;
  parts: number;
  /** Present (true) only on the choice the player took. */
  choice?: true;
}
/**
 * The choices on offer now, in the order the game lists them: the n-th is picked by the key
 * `n` (1..9), exactly as on the player's keyboard. Empty: no choice is on offer any more (the
 * play went to the title, loaded a save). A later line (higher `seq`) also ends them.
 */
export interface ChoicesMessage {
  v: 1;
  type: 'choices';
  seq: number;
  choices: string[];
}
/**
 * The screen shows no line now (the title, the ending card, a new play or a loaded save before
 * its line): the caption shows nothing until the next line. Numbered with the lines (`seq`); it
 * also ends the choices on offer. The lines read stay in the transcript.
 */
export interface ClearMessage {
  v: 1;
  type: 'clear';
  seq: number;
}
export type HostMessage =
  | ReadyMessage
  | PongMessage
  | ScreenshotSavedMessage
  | IdleWarningMessage
  | ByeMessage
  | HostErrorMessage
  | LineMessage
  | ChoicesMessage
  | ClearMessage;
/** The host → player messages that carry the game's text. */
export type TextMessage = LineMessage | ChoicesMessage | ClearMessage;

/** Largest text message (its JSON, in UTF-8 bytes) the host builds: under TRTC SEI's 1000. */
export const MAX_TEXT_MESSAGE_BYTES = 960;
/** Parts one line may be split into; past that the line is truncated. */
export const MAX_LINE_PARTS = 8;
/** Longest part of a line (UTF-16 code units) a player accepts. */
export const MAX_LINE_PART_CHARS = 320;
/** Longest speaker name (code units). */
export const MAX_SPEAKER_CHARS = 40;
/** Most choices on offer: the digit keys 1..9 pick them. */
export const MAX_CHOICES = 9;
/** Longest choice text (code units). */
export const MAX_CHOICE_CHARS = 80;

// ---------------------------------------------------------------------------------------------
// Validation

type Obj = Record<string, unknown>;

/** Accepts a JSON string (bounded), an ArrayBuffer/Uint8Array of UTF-8 JSON, or a plain object. */
function toObject(raw: unknown): Obj | null {
  let value: unknown = raw;
  if (typeof raw === 'string' || raw instanceof ArrayBuffer || ArrayBuffer.isView(raw)) {
    let text: string;
    if (typeof raw === 'string') {
      text = raw;
    } else {
      const bytes =
        raw instanceof ArrayBuffer
          ? new Uint8Array(raw)
          : new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
      if (bytes.byteLength > MAX_MESSAGE_CHARS * 4) return null;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        return null;
      }
    }
    if (text.length > MAX_MESSAGE_CHARS) return null;
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return null;
  return value as Obj;
}

function hasOnly(o: Obj, allowed: readonly string[]): boolean {
  const keys = Object.keys(o);
  if (keys.length > allowed.length) return false;
  return keys.every((k) => allowed.includes(k));
}

const isFiniteNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
const isUnit = (n: unknown): n is number => isFiniteNumber(n) && n >= 0 && n <= 1;
const ID_RE = /^[A-Za-z0-9_.:-]+$/;
const isId = (s: unknown): s is string =>
  typeof s === 'string' && s.length > 0 && s.length <= MAX_ID_CHARS && ID_RE.test(s);
const isInt = (n: unknown, min: number, max: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;
const isSeq = (n: unknown): n is number => isInt(n, 1, Number.MAX_SAFE_INTEGER);
/** Control characters and line breaks: refused in text fields (and made spaces by textMessages.ts). */
export const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
/** A non-empty string of at most `max` code units without control characters. */
const isText = (s: unknown, max: number): s is string =>
  typeof s === 'string' && s.length > 0 && s.length <= max && !CONTROL_RE.test(s);

/** Largest |dy| of one wheel message (pixels); a real wheel sends ~100 per notch. */
export const MAX_WHEEL_DY = 10000;

/**
 * Validates one message from a player. Returns a fresh object with exactly the known fields, or
 * null when the message is not exactly one of the player→host shapes of this protocol version.
 */
export function parsePlayerMessage(raw: unknown): PlayerMessage | null {
  const o = toObject(raw);
  if (!o || o.v !== PROTOCOL_VERSION) return null;
  switch (o.type) {
    case 'pointer': {
      if (!hasOnly(o, ['v', 'type', 'kind', 'x', 'y', 'button'])) return null;
      if (o.kind !== 'down' && o.kind !== 'up' && o.kind !== 'move') return null;
      if (!isUnit(o.x) || !isUnit(o.y)) return null;
      const msg: PointerMessage = { v: 1, type: 'pointer', kind: o.kind, x: o.x, y: o.y };
      if (o.button !== undefined) {
        if (o.button !== 0 && o.button !== 1 && o.button !== 2) return null;
        msg.button = o.button;
      }
      return msg;
    }
    case 'key': {
      if (!hasOnly(o, ['v', 'type', 'kind', 'key'])) return null;
      if (o.kind !== 'down' && o.kind !== 'up') return null;
      if (typeof o.key !== 'string' || !NAMED_KEY_SET.has(o.key)) return null;
      return { v: 1, type: 'key', kind: o.kind, key: o.key as NamedKey };
    }
    case 'wheel': {
      if (!hasOnly(o, ['v', 'type', 'dy'])) return null;
      if (!isFiniteNumber(o.dy) || Math.abs(o.dy) > MAX_WHEEL_DY) return null;
      return { v: 1, type: 'wheel', dy: o.dy };
    }
    case 'quality': {
      if (!hasOnly(o, ['v', 'type', 'level'])) return null;
      if (!(QUALITY_LEVELS as readonly unknown[]).includes(o.level)) return null;
      return { v: 1, type: 'quality', level: o.level as QualityLevel };
    }
    case 'screenshot': {
      if (!hasOnly(o, ['v', 'type', 'requestId'])) return null;
      if (!isId(o.requestId)) return null;
      return { v: 1, type: 'screenshot', requestId: o.requestId };
    }
    case 'ping': {
      if (!hasOnly(o, ['v', 'type', 't'])) return null;
      if (!isFiniteNumber(o.t)) return null;
      return { v: 1, type: 'ping', t: o.t };
    }
    default:
      return null;
  }
}

/** Validates one message from the host (the player side's counterpart of parsePlayerMessage). */
export function parseHostMessage(raw: unknown): HostMessage | null {
  const o = toObject(raw);
  if (!o || o.v !== PROTOCOL_VERSION) return null;
  switch (o.type) {
    case 'ready':
      return hasOnly(o, ['v', 'type']) ? { v: 1, type: 'ready' } : null;
    case 'pong':
      return hasOnly(o, ['v', 'type', 't']) && isFiniteNumber(o.t)
        ? { v: 1, type: 'pong', t: o.t }
        : null;
    case 'screenshot-saved':
      return hasOnly(o, ['v', 'type', 'requestId', 'screenshotId']) &&
        isId(o.requestId) &&
        isId(o.screenshotId)
        ? { v: 1, type: 'screenshot-saved', requestId: o.requestId, screenshotId: o.screenshotId }
        : null;
    case 'idle-warning':
      return hasOnly(o, ['v', 'type', 'secondsLeft']) &&
        isFiniteNumber(o.secondsLeft) &&
        o.secondsLeft >= 0
        ? { v: 1, type: 'idle-warning', secondsLeft: o.secondsLeft }
        : null;
    case 'bye':
      return hasOnly(o, ['v', 'type', 'reason']) &&
        (BYE_REASONS as readonly unknown[]).includes(o.reason)
        ? { v: 1, type: 'bye', reason: o.reason as ByeReason }
        : null;
    case 'error': {
      if (!hasOnly(o, ['v', 'type', 'code', 'requestId'])) return null;
      if (!(HOST_ERROR_CODES as readonly unknown[]).includes(o.code)) return null;
      const msg: HostErrorMessage = { v: 1, type: 'error', code: o.code as HostErrorCode };
      if (o.requestId !== undefined) {
        if (!isId(o.requestId)) return null;
        msg.requestId = o.requestId;
      }
      return msg;
    }
    case 'line': {
      if (!hasOnly(o, ['v', 'type', 'seq', 'speaker', 'text', 'part', 'parts', 'choice'])) return null;
      if (!isSeq(o.seq) || !isText(o.text, MAX_LINE_PART_CHARS)) return null;
      if (o.speaker !== null && !isText(o.speaker, MAX_SPEAKER_CHARS)) return null;
      if (!isInt(o.parts, 1, MAX_LINE_PARTS) || !isInt(o.part, 0, o.parts - 1)) return null;
      const msg: LineMessage = { v: 1, type: 'line', seq: o.seq, speaker: o.speaker, text: o.text, part: o.part, parts: o.parts };
      if (o.choice !== undefined) {
        if (o.choice !== true) return null;
        msg.choice = true;
      }
      return msg;
    }
    case 'choices': {
      if (!hasOnly(o, ['v', 'type', 'seq', 'choices'])) return null;
      if (!isSeq(o.seq) || !Array.isArray(o.choices) || o.choices.length > MAX_CHOICES) return null;
      if (!o.choices.every((c) => isText(c, MAX_CHOICE_CHARS))) return null;
      return { v: 1, type: 'choices', seq: o.seq, choices: o.choices.slice() as string[] };
    }
    case 'clear':
      return hasOnly(o, ['v', 'type', 'seq']) && isSeq(o.seq) ? { v: 1, type: 'clear', seq: o.seq } : null;
    default:
      return null;
  }
}

/** True for the messages that are game input (pointer, key, wheel). */
export function isInputMessage(m: PlayerMessage): m is InputMessage {
  return m.type === 'pointer' || m.type === 'key' || m.type === 'wheel';
}

/** Serialises a message for the wire (one JSON text per message). */
export function serializeMessage(msg: PlayerMessage | HostMessage): string {
  return JSON.stringify(msg);
}

type Without<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** Builds a player message with the current protocol version: `playerMessage({type:'ping', t})`. */
export function playerMessage(body: Without<PlayerMessage, 'v'>): PlayerMessage {
  return { v: PROTOCOL_VERSION, ...body } as PlayerMessage;
}

/** Builds a host message with the current protocol version: `hostMessage({type:'ready'})` (text: textMessages.ts). */
export function hostMessage(body: Without<HostMessage, 'v'>): HostMessage {
  return { v: PROTOCOL_VERSION, ...body } as HostMessage;
}
