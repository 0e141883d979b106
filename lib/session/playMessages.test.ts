/**
 * The play page's failure messages (issue 10 item 7): every code the server can send maps to a
 * message that says what happened and what to do, and a failure after the game was on screen is
 * not told as a start that failed. The server's reasons are read from its source, so a new
 * reason without a message fails here rather than showing 「プレイを開始できませんでした」.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BYE_REASONS } from '@/lib/streaming/messages';
import { API_ERROR_MESSAGES } from '@/lib/api-types/errors';
import { FAILURE_MESSAGES, failureOf, type PlayFailure } from './playMessages';

const ROOT = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** Reasons a session fails or closes with, as the api and the host write them. */
function serverReasons(): Set<string> {
  const found = new Set<string>();
  const patterns = [
    // (client, row, 'reason', actor)
    /failLocked\(\w+, [\w.]+, '([a-z_]+)'/g,
    /failHostSessions\(\w+, [\w.]+, '([a-z_]+)'/g,
    /\{ fail: '([a-z_]+)' \}/g,
    /\{ close: '([a-z_]+)' \}/g,
    /report: 'failed', reason: '([a-z_]+)'/g,
    /reason: reason \?\? '([a-z_]+)'/g,
    /const reason = [^;]*'([a-z_]+)' : '([a-z_]+)'/g,
  ];
  for (const file of [...sources('server/api/services'), ...sources('server/host')]) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const re of patterns) for (const m of text.matchAll(re)) m.slice(1).forEach((r) => r && found.add(r));
  }
  return found;
}

describe('failureOf', () => {
  it('finds the reasons in the server source (the scan itself works)', () => {
    const reasons = serverReasons();
    for (const known of ['runtime_crashed', 'runtime_lost', 'host_restarted', 'host_unavailable', 'start_timeout', 'host_lost', 'host_shutdown', 'runtime_start_failed', 'idle', 'disconnected']) {
      expect(reasons).toContain(known);
    }
  });

  it('gives every failure and close reason of the server its own message, never the generic one', () => {
    for (const reason of serverReasons()) {
      expect([reason, failureOf(reason, 'start')]).not.toEqual([reason, 'unknown']);
      // after playing began, only reasons of a start (start_timeout) may be the generic interruption
      if (!reason.startsWith('start_')) expect([reason, failureOf(reason, 'play')]).not.toEqual([reason, 'play_interrupted']);
      expect(failureOf(reason, 'play')).not.toBe('unknown');
    }
  });

  it('gives every bye reason of the host a message', () => {
    for (const reason of BYE_REASONS.filter((r) => r !== 'error')) {
      expect([reason, failureOf(reason, 'play')]).not.toEqual([reason, 'play_interrupted']);
    }
  });

  it('tells a runtime that died after the game was on screen apart from one that never started', () => {
    for (const reason of ['runtime_crashed', 'runtime_lost', 'runtime_failed']) {
      expect(failureOf(reason, 'play')).toBe('game_crashed');
      expect(failureOf(reason, 'start')).toBe('start_failed');
    }
    expect(failureOf('runtime_start_failed', 'start')).toBe('start_failed');
    expect(FAILURE_MESSAGES.game_crashed.title).toBe('ゲームが停止しました');
    expect(FAILURE_MESSAGES.game_crashed.body).not.toContain('開始できませんでした');
    expect(FAILURE_MESSAGES.game_crashed.retry).toBe('もう一度プレイする');
  });

  it.each<[string, PlayFailure, PlayFailure]>([
    ['host_restarted', 'host_lost', 'host_lost'],
    ['host_unavailable', 'host_unavailable', 'host_lost'],
    ['start_timeout', 'start_timeout', 'play_interrupted'],
    ['host_shutdown', 'host_lost', 'host_lost'],
    ['host_lost', 'host_lost', 'host_lost'],
    ['no_capacity', 'no_capacity', 'no_capacity'],
    ['replaced', 'replaced', 'replaced'],
    ['game_over', 'game_over', 'game_over'],
    ['session_not_found', 'session_closed', 'session_closed'],
  ])('maps %s to %s while starting and %s while playing', (reason, start, play) => {
    expect(failureOf(reason, 'start')).toBe(start);
    expect(failureOf(reason, 'play')).toBe(play);
  });

  it.each<[string, PlayFailure]>([
    ['instance_limit', 'instance_limit'],
    ['token_invalid', 'verified_required'],
    ['subscription_required', 'subscription_required'],
    ['network', 'network_lost'],
    ['ice_failed', 'stream_failed'],
    ['force_closed', 'session_closed'],
    ['unsupported_provider', 'unsupported'],
  ])('keeps the mapping the play page already relied on: %s → %s', (code, failure) => {
    expect(failureOf(code)).toBe(failure);
  });

  it('keeps unknown codes generic: a failed start before the game was on screen, an interrupted play after', () => {
    expect(failureOf('something_new')).toBe('unknown');
    expect(failureOf(null)).toBe('unknown');
    expect(failureOf('something_new', 'play')).toBe('play_interrupted');
    expect(failureOf('toString')).toBe('unknown');
    expect(FAILURE_MESSAGES.play_interrupted.body).not.toContain('開始できませんでした');
  });

  it('maps each api error code either to its own message or to the generic start failure', () => {
    for (const code of Object.keys(API_ERROR_MESSAGES)) {
      const failure = failureOf(code);
      expect(FAILURE_MESSAGES[failure]).toBeDefined();
      // A code that names a failure of its own (instance_limit, subscription_required, …) gets it.
      if (Object.hasOwn(FAILURE_MESSAGES, code)) expect(failure).toBe(code);
    }
  });
});

describe('FAILURE_MESSAGES', () => {
  it('says what happened and what to do, in Japanese, with a retry label, for every failure', () => {
    for (const [failure, m] of Object.entries(FAILURE_MESSAGES)) {
      expect([failure, m.title.length > 0, m.body.length > 10, m.retry.length > 0]).toEqual([failure, true, true, true]);
      expect(m.title + m.body).toMatch(/[ぁ-んァ-ヶ一-龯]/);
      expect(m.body).not.toMatch(/[a-z]+_[a-z]+/);
    }
  });

  it('keeps the retry labels the play page showed before', () => {
    expect(FAILURE_MESSAGES.session_closed.retry).toBe('もう一度プレイする');
    expect(FAILURE_MESSAGES.idle_timeout.retry).toBe('もう一度プレイする');
    expect(FAILURE_MESSAGES.background_timeout.retry).toBe('もう一度プレイする');
    expect(FAILURE_MESSAGES.network_lost.retry).toBe('もう一度試す');
    expect(FAILURE_MESSAGES.instance_limit.retry).toBe('もう一度試す');
  });
});
