/**
 * Billing periods, computed like Stripe's: every period end is the billing cycle anchor plus a
 * whole number of intervals (in UTC), a month-end anchor is clamped to shorter months (Jan 31 →
 * Feb 28 → Mar 31), so periods never drift.
 */
import type { WirePlan } from './wire';

export type Interval = WirePlan['interval'];

/** anchor + n × (count × interval), in unix seconds. */
export function addIntervals(anchor: number, interval: Interval, count: number, n: number): number {
  const steps = count * n;
  if (interval === 'day') return anchor + steps * 86_400;
  if (interval === 'week') return anchor + steps * 7 * 86_400;
  const date = new Date(anchor * 1000);
  const months = interval === 'month' ? steps : steps * 12;
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const targetYear = year + Math.floor(month / 12);
  const targetMonth = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  const ms = Date.UTC(targetYear, targetMonth, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
  return Math.floor(ms / 1000);
}

/** The first period end after `after` on the anchor's grid. */
export function nextPeriodEnd(anchor: number, interval: Interval, count: number, after: number): number {
  for (let n = 1; n < 100_000; n++) {
    const end = addIntervals(anchor, interval, count, n);
    if (end > after) return end;
  }
  throw new Error('billing period out of range');
}
