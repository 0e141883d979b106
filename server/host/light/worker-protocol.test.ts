/**
 * The light worker's wire, checked by the agent (worker-protocol.ts parseFromWorker) and the ICE
 * servers as the sender takes them (session.ts iceForSender): what is malformed is refused, what
 * is long is cut, TURN credentials go into the URL escaped.
 */
import { iceForSender } from './session';
import { parseFromWorker } from './worker-protocol';

describe('parseFromWorker', () => {
  it('takes each message the worker sends', () => {
    expect(parseFromWorker({ type: 'booted', ms: 12 })).toEqual({ type: 'booted', ms: 12 });
    expect(parseFromWorker({ type: 'answer', id: 3, value: { a: 1 } })).toEqual({ type: 'answer', id: 3, value: { a: 1 } });
    expect(parseFromWorker({ type: 'answer', id: 3, error: 'boom' })).toEqual({ type: 'answer', id: 3, error: 'boom' });
    expect(parseFromWorker({ type: 'host-call', id: 1, key: 'lt-1', call: { kind: 'input-activity' } })).toEqual({ type: 'host-call', id: 1, key: 'lt-1', call: { kind: 'input-activity' } });
    expect(parseFromWorker({ type: 'engine-event', key: 'lt-1', name: 'save', payload: { slot: 1 } })).toEqual({ type: 'engine-event', key: 'lt-1', name: 'save', payload: { slot: 1 } });
    expect(parseFromWorker({ type: 'log', level: 'warn', message: 'x' })).toEqual({ type: 'log', level: 'warn', message: 'x' });
    expect(parseFromWorker({ type: 'log', key: 'lt-2', level: 'info', message: 'y' })).toEqual({ type: 'log', key: 'lt-2', level: 'info', message: 'y' });
  });

  it('refuses what is malformed', () => {
    for (const bad of [null, 'booted', 42, {}, { type: 'nope' }, { type: 'booted' }, { type: 'answer', id: '1' }, { type: 'host-call', id: 1, call: { kind: 'end' } }, { type: 'host-call', id: 1, key: 'k', call: null }, { type: 'engine-event', name: 'save' }, { type: 'log', level: 'debug', message: 'x' }, { type: 'log', level: 'warn' }]) {
      expect(parseFromWorker(bad)).toBeNull();
    }
  });

  it('cuts long text', () => {
    const m = parseFromWorker({ type: 'log', level: 'error', message: 'x'.repeat(10_000) });
    expect(m && m.type === 'log' && m.message.length).toBe(2000);
    const a = parseFromWorker({ type: 'answer', id: 1, error: 'e'.repeat(10_000) });
    expect(a && a.type === 'answer' && a.error?.length).toBe(500);
  });
});

describe('iceForSender', () => {
  it('turns RTCIceServers into webrtcbin URLs', () => {
    expect(iceForSender([])).toEqual({ stun: undefined, turn: [] });
    expect(
      iceForSender([
        { urls: 'stun:stun.example.jp:3478' },
        { urls: ['turn:turn.example.jp:3478?transport=udp', 'turns:turn.example.jp:5349'], username: '1700000000:u@1', credential: 'p/w+=' },
        { urls: 'turn:no-credential.example.jp:3478' },
        { urls: 'https://not-ice.example.jp' },
      ]),
    ).toEqual({
      stun: 'stun://stun.example.jp:3478',
      turn: ['turn://1700000000%3Au%401:p%2Fw%2B%3D@turn.example.jp:3478?transport=udp', 'turns://1700000000%3Au%401:p%2Fw%2B%3D@turn.example.jp:5349'],
    });
  });
});
