/**
 * The signalling frames' parser: what a peer may get, the page id on `peer-joined` (kept only
 * when it is a PEER_ID), and what each role may send.
 */
import { mayRelay, newPeerId, parseSignal, PEER_ID } from './signal';

describe('parseSignal', () => {
  it('keeps a peer-joined page id only when it is a PEER_ID', () => {
    expect(parseSignal(JSON.stringify({ type: 'peer-joined', role: 'player', peer: 'abcdef0123456789' }))).toEqual({ type: 'peer-joined', role: 'player', peer: 'abcdef0123456789' });
    expect(parseSignal(JSON.stringify({ type: 'peer-joined', role: 'player', peer: 'a b<script>' }))).toEqual({ type: 'peer-joined', role: 'player' });
    expect(parseSignal(JSON.stringify({ type: 'peer-joined', role: 'player', peer: 12 }))).toEqual({ type: 'peer-joined', role: 'player' });
    expect(parseSignal(JSON.stringify({ type: 'peer-joined', role: 'nobody' }))).toBeNull();
  });

  it('makes fresh page ids that pass PEER_ID and differ', () => {
    const a = newPeerId();
    expect(PEER_ID.test(a)).toBe(true);
    expect(newPeerId()).not.toBe(a);
  });

  it('lets the host offer and the player answer, both trickle', () => {
    expect(mayRelay('host', { type: 'offer', sdp: 'x' })).toBe(true);
    expect(mayRelay('player', { type: 'offer', sdp: 'x' })).toBe(false);
    expect(mayRelay('player', { type: 'answer', sdp: 'x' })).toBe(true);
    expect(mayRelay('player', { type: 'peer-joined', role: 'host' })).toBe(false);
    expect(mayRelay('player', { type: 'ice', candidate: null })).toBe(true);
  });
});
