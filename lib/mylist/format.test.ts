import { fileStamp, formatDate, formatDateTime, formatPlayTime } from './format';
import { screenshotFileName } from './share';

describe('my-list formatting', () => {
  it.each([
    [0, '1分未満'],
    [59, '1分未満'],
    [60, '1分'],
    [5 * 60 + 59, '5分'],
    [3600, '1時間'],
    [83 * 60 + 20, '1時間23分'],
    [26 * 3600 + 5 * 60, '26時間5分'],
    [-5, '1分未満'],
  ])('writes %i seconds as 「%s」', (s, text) => {
    expect(formatPlayTime(s)).toBe(text);
  });

  it('writes dates in Japanese, in Japan time', () => {
    const t = Date.UTC(2025, 2, 3, 23, 5); // 2025-03-04 08:05 in Tokyo
    expect(formatDateTime(t)).toBe('2025年3月4日 08:05');
    expect(formatDate(t)).toBe('2025年3月4日');
  });

  it('names files <gameId>-<date>.png', () => {
    const t = Date.UTC(2025, 2, 3, 23, 5, 7);
    expect(fileStamp(t)).toBe('20250304-080507');
    expect(screenshotFileName('amayadori-cafe', t)).toBe('amayadori-cafe-20250304-080507.png');
  });
});
