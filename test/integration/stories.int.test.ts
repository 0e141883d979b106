/**
 * The three titles' content against docs/vn-engine.md: every story compiles with inkjs's
 * compiler, every path through every choice reaches an `# ending:` tag, every tag is in the
 * contract, every referenced background / character / expression / track / sfx exists in
 * game.json and on disk, and every title is long enough and branches to several endings.
 * Needs no running services (the shared walker is scripts/art/story-check.ts).
 */
import { checkGame, gameIds, type GameReport } from '@/scripts/art/story-check';

const MIN_CHARS_PER_PATH = 6000;
const ids = gameIds();

describe('game content', () => {
  it('finds the three titles', () => {
    expect(ids).toEqual(expect.arrayContaining(['hajimari-no-eki', 'hoshifuru-toshokan', 'sakurairo-signal']));
  });

  describe.each(ids)('%s', (id) => {
    let report: GameReport;
    beforeAll(() => {
      report = checkGame(id);
    });

    it('compiles, and its tags, ids, files, scores and sfx follow the contract', () => {
      expect(report.errors).toEqual([]);
    });

    it('reaches an ending on every path', () => {
      expect(report.paths.length).toBeGreaterThan(1);
      for (const p of report.paths) expect(p.endings).toHaveLength(1);
    });

    it('branches to at least two distinct endings, all declared in game.json', () => {
      expect(Object.keys(report.endingsReached).length).toBeGreaterThanOrEqual(2);
    });

    it(`has at least ${MIN_CHARS_PER_PATH} characters of text on every path`, () => {
      expect(report.minChars).toBeGreaterThanOrEqual(MIN_CHARS_PER_PATH);
    });

    it('has at least two music tracks of 16 bars or more', () => {
      const bars = Object.values(report.musicBars);
      expect(bars.length).toBeGreaterThanOrEqual(2);
      for (const b of bars) expect(b).toBeGreaterThanOrEqual(16);
    });
  });
});
