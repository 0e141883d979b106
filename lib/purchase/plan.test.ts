/**
 * The premium plan's status on the settings pages: only a future paymentExpirationTime is valid
 * (有効); a past one reads as expired (期限切れ), not as valid.
 */
import { planStatus } from './plan';

const at = (iso: string) => Date.parse(iso);
const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('planStatus', () => {
  const expiry = seconds('2026-03-04T12:00:00Z');

  it('is active (有効) while the expiry time is in the future', () => {
    const s = planStatus(expiry, at('2026-03-01T00:00:00Z'));
    expect(s.kind).toBe('active');
    expect(s.label).toMatch(/^2026年3月4日 まで有効$/);
  });

  it('is expired (期限切れ) once the expiry time has passed, never valid', () => {
    for (const now of [at('2026-03-04T12:00:00Z'), at('2026-03-04T12:00:01Z'), at('2027-01-01T00:00:00Z')]) {
      const s = planStatus(expiry, now);
      expect(s.kind).toBe('expired');
      expect(s.label).toContain('期限切れ');
      expect(s.label).not.toContain('有効');
    }
  });

  it('is none (未加入) without a claim', () => {
    expect(planStatus(null)).toEqual({ kind: 'none', date: null, label: '未加入' });
    expect(planStatus(undefined).kind).toBe('none');
  });
});
