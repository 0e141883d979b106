/** "2026-08-31" → "2026年8月31日" (dates are calendar days: no time zone involved). */
export function formatDate(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  return m ? `${m[1]}年${Number(m[2])}月${Number(m[3])}日` : ymd;
}
