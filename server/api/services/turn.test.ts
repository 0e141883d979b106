/**
 * TURN credentials (turn.ts): coturn's REST-API scheme, checked against an HMAC computed here, the
 * expiry from the TTL, and the settings' checks (URLs, secret, its length in production).
 */
import { createHmac } from 'node:crypto';
import { iceServersFor, loadTurnConfig, turnCredential } from './turn';

describe('TURN credentials', () => {
  const turn = { urls: ['turn:127.0.0.1:3478'], secret: 'k', ttlS: 600 };

  it('is "<expiry>:<session>" with base64(HMAC-SHA1(secret, username)), valid for the TTL', () => {
    const c = turnCredential(turn, 'sess', 1_700_000_000_000);
    expect(c.username).toBe('1700000600:sess');
    expect(c.credential).toBe(createHmac('sha1', 'k').update('1700000600:sess').digest('base64'));
    expect(c.urls).toEqual(turn.urls);
  });

  it('adds one credential after the static ICE servers, only when TURN is set', () => {
    const stun = [{ urls: 'stun:127.0.0.1:3478' }];
    expect(iceServersFor({ iceServers: stun }, 's')).toEqual(stun);
    const all = iceServersFor({ iceServers: stun, turn }, 's', 0);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ username: '600:s' });
  });

  it('reads TURN_URLS, TURN_SECRET and TURN_TTL_S, and refuses what coturn would not take', () => {
    expect(loadTurnConfig({}, false)).toBeUndefined();
    expect(loadTurnConfig({ TURN_URLS: 'turn:a:3478', TURN_SECRET: 'x' }, false)).toEqual({ urls: ['turn:a:3478'], secret: 'x', ttlS: 3600 });
    expect(() => loadTurnConfig({ TURN_URLS: 'http://a', TURN_SECRET: 'x' }, false)).toThrow(/TURN_URLS/);
    expect(() => loadTurnConfig({ TURN_URLS: 'turn:a' }, false)).toThrow(/TURN_SECRET/);
    expect(() => loadTurnConfig({ TURN_URLS: 'turn:a', TURN_SECRET: 'short' }, true)).toThrow(/16/);
  });
});
