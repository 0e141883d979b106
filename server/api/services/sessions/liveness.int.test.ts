/**
 * The liveness rule's clock (liveness.ts, docs/reliability.md): hosts are judged only after a
 * whole heartbeat timeout of continuous contact with PostgreSQL; a gap (a stall, a pause of the
 * api, a slow round trip) starts the grace again; the process start counts for hosts only. Pure
 * logic on given times: no services needed (it sits with the integration suites of its folder).
 */
import { DatabaseContact } from './liveness';

const TIMEOUT = 6_000;

describe('DatabaseContact', () => {
  it('judges only after a whole timeout since the start, and the other rules at once', () => {
    const c = new DatabaseContact(TIMEOUT / 2, 0);
    for (let t = 1_000; t <= 5_000; t += 1_000) c.succeeded(t - 10, t);
    expect(c.clearFor(TIMEOUT, 5_000)).toBe(false);
    expect(c.quietFor(TIMEOUT, 5_000)).toBe(true);
    c.succeeded(5_990, 6_000);
    expect(c.clearFor(TIMEOUT, 6_000)).toBe(true);
  });

  it('a stall longer than half the timeout starts a fresh grace for hosts and for every rule', () => {
    const c = new DatabaseContact(TIMEOUT / 2, 0);
    for (let t = 1_000; t <= 20_000; t += 1_000) c.succeeded(t - 10, t);
    expect(c.clearFor(TIMEOUT, 20_000)).toBe(true);
    // PostgreSQL stalled for 10 s: the next success comes at 30 s
    c.succeeded(29_990, 30_000);
    expect(c.clearFor(TIMEOUT, 30_000)).toBe(false);
    expect(c.quietFor(TIMEOUT, 30_000)).toBe(false);
    for (let t = 31_000; t < 36_000; t += 1_000) {
      c.succeeded(t - 10, t);
      expect(c.clearFor(TIMEOUT, t)).toBe(false);
    }
    c.succeeded(35_990, 36_000);
    expect(c.clearFor(TIMEOUT, 36_000)).toBe(true);
    expect(c.quietFor(TIMEOUT, 36_000)).toBe(true);
  });

  it('one round trip that took longer than half the timeout is a gap too (a query sent before the stall)', () => {
    const c = new DatabaseContact(TIMEOUT / 2, 0);
    for (let t = 1_000; t <= 10_000; t += 1_000) c.succeeded(t - 10, t);
    c.succeeded(10_500, 14_000); // sent at 10.5 s, answered 3.5 s later
    expect(c.clearFor(TIMEOUT, 14_000)).toBe(false);
  });

  it('short hiccups and ordinary cadence keep the contact clear', () => {
    const c = new DatabaseContact(TIMEOUT / 2, 0);
    for (let t = 1_000; t <= 10_000; t += 1_000) c.succeeded(t - 10, t);
    c.succeeded(12_000, 12_900); // 2.9 s after the last success: shorter than the gap limit
    expect(c.clearFor(TIMEOUT, 12_900)).toBe(true);
  });

  it('a slow first contact is the start, not an outage: the other rules are not held', () => {
    const c = new DatabaseContact(TIMEOUT / 2, 0);
    c.succeeded(9_000, 10_000);
    expect(c.clearFor(TIMEOUT, 10_000)).toBe(false);
    expect(c.quietFor(TIMEOUT, 10_000)).toBe(true);
  });
});
