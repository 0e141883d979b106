/**
 * @jest-environment node
 *
 * The catalogue's titles as the repository holds them (issue 15 added "The Question", a Ren'Py
 * game, beside the five web-engine titles): one helper (lib/api-types/titleRuntime.ts) says
 * which runtime plays a title, and everything that walks games/ follows it — the seed reads its
 * runtime and licence, the story checks and the VN runtime's build skip it, the host's prewarm
 * plan never loads or prepares it in a web runtime page; its images are in the other titles'
 * formats; search finds it by its reading, in katakana, and by its brand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { isWebEngineMetaText, isWebEngineTitle, runtimeKindOf } from '@/lib/api-types/titleRuntime';
import { GAMES_DIR, isWebEngineGameDir } from '@/runtime/build';
import { gameIds } from '@/scripts/art/story-check';
import { readCatalogue } from '@/server/api/services/catalogue/seed';
import { buildSnapshot } from '@/server/api/services/catalogue/snapshot';
import { searchCatalogue } from '@/server/api/services/catalogue/search';
import { buildPrewarmPlan } from '@/server/host/prewarm';

const ROOT = path.resolve(__dirname, '..', '..');
const WEB_TITLES = ['amayadori-cafe', 'hajimari-no-eki', 'hoshifuru-toshokan', 'sakurairo-signal', 'shizuka-no-umi-postman'];
const RENPY = 'the-question';

describe('which runtime plays a title', () => {
  it('is the web engine without "runtime", and only for kind web', () => {
    expect(runtimeKindOf({ id: 'x' })).toBe('web');
    expect(runtimeKindOf(null)).toBe('web');
    expect(runtimeKindOf({ runtime: { kind: 'web' } })).toBe('web');
    expect(runtimeKindOf({ runtime: { kind: 'renpy', baseDir: '/x' } })).toBe('renpy');
    expect(isWebEngineTitle({ runtime: { kind: 'renpy' } })).toBe(false);
    // an unknown kind is never taken for the web engine
    expect(isWebEngineTitle({ runtime: { kind: 'flash' } })).toBe(false);
    expect(isWebEngineTitle({ runtime: { kind: 7 } })).toBe(false);
    expect(isWebEngineMetaText(null)).toBe(true);
    expect(isWebEngineMetaText('{"runtime":{"kind":"renpy"}}')).toBe(false);
  });

  it('sorts the repository\'s games/ into five web titles and one Ren\'Py title', () => {
    const folders = fs.readdirSync(GAMES_DIR).filter((id) => fs.existsSync(path.join(GAMES_DIR, id, 'meta.json'))).sort();
    expect(folders).toEqual([...WEB_TITLES, RENPY].sort());
    expect(folders.filter((id) => isWebEngineGameDir(path.join(GAMES_DIR, id)))).toEqual(WEB_TITLES);
    expect(fs.existsSync(path.join(GAMES_DIR, RENPY, 'story.ink'))).toBe(false);
    // the story checks walk the web titles only
    expect(gameIds()).toEqual(WEB_TITLES);
  });
});

describe('the catalogue as the seed reads it', () => {
  const catalogue = readCatalogue({ gamesDir: GAMES_DIR, contentDir: path.join(ROOT, 'content') });

  it('holds "The Question": free, by Ren\'Py, run natively in Japanese, with its licence', async () => {
    const { titles, brands } = await catalogue;
    expect(titles).toHaveLength(6);
    const t = titles.find((x) => x.id === RENPY)!;
    expect(t).toMatchObject({ title: 'The Question', reading: 'ざ・くえすちょん', brandId: 'renpy', premium: false, ageRating: 'all' });
    expect(brands.find((b) => b.id === 'renpy')).toMatchObject({ name: "Ren'Py", reading: 'れんぱい' });
    expect(t.runtime).toEqual({ kind: 'renpy', baseDir: '/usr/share/games/renpy/the_question', language: 'japanese' });
    expect(t.description).toMatch(/シルビー/);
    expect(t.description).toMatch(/Ren'Py/);
    expect(t.license).toMatchObject({ name: 'Expat (MIT)', copyright: '2004-2022 Tom Rothamel and contributors', source: 'Debian renpy-thequestion 8.0.3+dfsg-1' });
    expect(t.license!.credits).toHaveLength(6);
    expect(t.license!.text).toMatch(/^Copyright \(c\) 2004-2022 Tom Rothamel/);
    expect(t.license!.text).toContain('The above copyright notice and this permission notice shall be included in all copies');
    for (const id of WEB_TITLES) {
      const web = titles.find((x) => x.id === id)!;
      expect(web.runtime).toEqual({ kind: 'web' });
      expect(web).not.toHaveProperty('license');
    }
  });

  it('has every title\'s key art (1280×720 PNG) and screenshots (1280×720 WebP, Japanese alt) in public/', async () => {
    const { titles } = await catalogue;
    for (const t of titles) {
      const art = await sharp(path.join(ROOT, 'public', t.keyArt)).metadata();
      expect([t.id, art.format, art.width, art.height]).toEqual([t.id, 'png', 1280, 720]);
      expect(t.screenshots.length).toBeGreaterThanOrEqual(3);
      for (const shot of t.screenshots) {
        const m = await sharp(path.join(ROOT, 'public', shot.src)).metadata();
        expect([shot.src, m.format, m.width, m.height]).toEqual([shot.src, 'webp', shot.width, shot.height]);
        expect(shot.alt).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      }
    }
  });

  it.each(['ざ・くえすちょん', 'くえすちょん', 'クエスチョン', "Ren'Py", 'れんぱい', 'シルビー'])('search finds it by %s', async (q) => {
    const { titles, brands, articles } = await catalogue;
    const hits = searchCatalogue(buildSnapshot(brands, titles, articles), q, new Map()).hits;
    expect(hits[0]?.title.id).toBe(RENPY);
  });
});

describe('the host\'s prewarm plan', () => {
  it('never loads or prepares a Ren\'Py title in a web runtime page, even with a stale build of it', () => {
    const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yc-prewarm-'));
    try {
      fs.mkdirSync(path.join(runtimeDir, 'games'));
      fs.writeFileSync(path.join(runtimeDir, 'games', `${RENPY}.json`), JSON.stringify({ charset: 'Ω' }));
      fs.writeFileSync(path.join(runtimeDir, 'games', 'hajimari-no-eki.json'), JSON.stringify({ charset: '駅' }));
      const plan = buildPrewarmPlan(runtimeDir, [GAMES_DIR], { prepare: [RENPY, 'hajimari-no-eki'], files: true });
      expect(plan.prepare?.map((p) => p.gameId)).toEqual(['hajimari-no-eki']);
      expect([...plan.fetch, ...plan.images].filter((u) => u.includes(RENPY))).toEqual([]);
      expect(plan.fetch).toContain('/games/hajimari-no-eki/game.json');
      expect(plan.charset).toContain('駅');
      expect(plan.charset).not.toContain('Ω');
    } finally {
      fs.rmSync(runtimeDir, { recursive: true, force: true });
    }
  });
});
