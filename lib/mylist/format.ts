/**
 * How the my-list pages write times. Dates are shown in Japan time (the service's audience),
 * so the same entry reads the same on the server, in tests and in the browser.
 */

const DATE_TIME = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

const DATE = new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', year: 'numeric', month: 'long', day: 'numeric' });

/** 2025年3月4日 09:05 */
export function formatDateTime(ms: number): string {
  return DATE_TIME.format(ms);
}

/** 2025年3月4日 */
export function formatDate(ms: number): string {
  return DATE.format(ms);
}

/** 1時間23分 · 5分 · 1分未満 (seconds are dropped: the history is not a stopwatch). */
export function formatPlayTime(totalSeconds: number): string {
  const minutes = Math.floor(Math.max(0, totalSeconds) / 60);
  if (minutes < 1) return '1分未満';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m}分`;
  return m === 0 ? `${h}時間` : `${h}時間${m}分`;
}

/** YYYYMMDD-HHmmss in Japan time, for file names. Swedish dates are ISO-shaped ("2025-03-04 09:05:07"). */
const STAMP = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo', dateStyle: 'short', timeStyle: 'medium' });

export function fileStamp(ms: number): string {
  const digits = STAMP.format(ms).replace(/\D/g, '');
  return `${digits.slice(0, 8)}-${digits.slice(8, 14)}`;
}
