/**
 * Sound effects rendered at build time (runtime/build-loops.ts → src/audio/sfx-render.ts, issue
 * 11): the build writes one WAV per sound effect of the games and the engine's choice click, named
 * by the spec's hash; a repeat build takes them from the cache; a session plays an effect from its
 * file (fetched through the host's page server, played after the chain) at the level the live
 * effect has; without a file (a spec edited since the build) or with `?sfx=live` it plays live, and
 * a missing file is not asked for again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import { buildAudioFiles, collectSfx } from '../../runtime/build-loops';
import { LOOP_SAMPLE_RATE, SFX_DIR, sfxFileName } from '../../runtime/src/audio/loop-file';
import { CHOICE_SFX } from '../../runtime/src/audio/sfx';
import type { EngineState, SfxSpec } from '../../runtime/src/types';
import { buildTestRuntime } from '../../server/host/testing/harness';
import { FIXTURE, key, openFixture, runtimePagesForSuite, sleep, state, streamLevel, waitFor, wavFormat } from './runtime-page';

jest.setTimeout(180_000);

const pages = runtimePagesForSuite();

/** The fixture's music made silent (a score with no notes, not looping): only the effects are heard. */
async function silentMusic(page: Page): Promise<void> {
  await page.route(`**/games/${FIXTURE}/music/*.json`, (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify({ bpm: 60, loop: false, tracks: [] }) }));
}

/** The fixture's game.json with its chime edited since the build (the build has no file for it). */
async function editedChime(page: Page): Promise<void> {
  await page.route(`**/games/${FIXTURE}/game.json`, async (r) => {
    const game = (await (await r.fetch()).json()) as { sfx: Record<string, SfxSpec> };
    game.sfx.chime = { type: 'chime', volume: 0.7 };
    await r.fulfill({ contentType: 'application/json', body: JSON.stringify(game) });
  });
}

/** Presses on (Enter; `choice` at a choice) until `pred` holds on a fully typed line or another screen. */
async function playUntil(page: Page, pred: (s: EngineState) => boolean, what: string, choice = '1'): Promise<EngineState> {
  for (let i = 0; i < 40; i++) {
    const s = await state(page);
    if (pred(s) && !s.typing) return s;
    await key(page, s.choices.length ? choice : 'Enter');
    await sleep(s.screen === 'ending' ? 1300 : 150);
  }
  throw new Error(`never reached ${what}: ${JSON.stringify(await state(page))}`);
}

const sfxCounts = async (page: Page) => (await state(page)).audio.sfx;

/** The fixture's line before its chime, then the chime's level (the next line plays it). */
async function chimeLevel(page: Page): Promise<number> {
  await waitFor(page, (s) => s.screen === 'title' && s.audio.state === 'running', 'the title with its sound running');
  await playUntil(page, (s) => s.text.includes('こんにちは'), 'the line before the chime');
  return streamLevel(page, { key: 'Enter', ms: 2500 });
}

describe('sound effects rendered at build time', () => {
  it("the build has a 48 kHz stereo WAV for every game's sound effect and the choice click, named by the spec's hash", async () => {
    const runtimeDir = await buildTestRuntime();
    const specs = collectSfx([GAMES_DIR, FIXTURES_DIR]);
    expect(specs.length).toBeGreaterThanOrEqual(35);
    expect(specs).toContainEqual(CHOICE_SFX);
    for (const spec of specs) {
      const file = path.join(runtimeDir, SFX_DIR, sfxFileName(spec));
      expect(fs.existsSync(file)).toBe(true);
      const wav = wavFormat(file);
      expect(wav).toMatchObject({ channels: 2, sampleRate: LOOP_SAMPLE_RATE, bits: 16 });
      // the effect and its reverb's ring, the trailing silence cut: a few seconds
      const seconds = wav!.frames / LOOP_SAMPLE_RATE;
      expect(seconds).toBeGreaterThan(0.2);
      expect(seconds).toBeLessThan(12);
    }
    // an edited spec gets another name: the page never plays a stale file
    expect(sfxFileName({ ...CHOICE_SFX, volume: 0.4 })).not.toBe(sfxFileName(CHOICE_SFX));
  });

  it('a repeat build renders nothing: every effect comes from the cache', async () => {
    await buildTestRuntime(); // the first build (this worker's runtime) rendered what the cache lacked
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-sfx-'));
    try {
      const r = await buildAudioFiles({ outDir: out, gamesDirs: [FIXTURES_DIR], quiet: true });
      const names = new Set(collectSfx([FIXTURES_DIR]).map(sfxFileName));
      expect(r.sfx).toEqual({ files: names.size, rendered: 0, missing: 0 });
      expect(r.loops?.rendered).toBe(0);
      expect(fs.readdirSync(path.join(out, SFX_DIR)).sort()).toEqual([...names].sort());
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('a session plays its effects from their files (and the choice click), as loud as live; ?sfx=live plays them live', async () => {
    const levels: Record<string, number> = {};
    for (const mode of ['file', 'live'] as const) {
      const { page, errors, wavTypes } = await openFixture(pages, { before: silentMusic, query: mode === 'live' ? 'sfx=live' : undefined });
      try {
        levels[mode] = await chimeLevel(page);
        expect(await sfxCounts(page)).toEqual(mode === 'file' ? { file: 1, live: 0 } : { file: 0, live: 1 });
        // an effect from its file joins after the chain: the reverb is built only for a live one (chain.ts)
        expect((await state(page)).audio.sends).toEqual({ reverb: mode === 'live', delay: false });
        // on to the choice: its click, then the steps
        await playUntil(page, (s) => s.choices.length > 0, 'the choice');
        await key(page, '1');
        await waitFor(page, (s) => (s.audio.sfx?.[mode] ?? 0) === 3, 'the click and the steps');
        expect(await sfxCounts(page)).toEqual(mode === 'file' ? { file: 3, live: 0 } : { file: 0, live: 3 });
        expect(wavTypes).toEqual(mode === 'file' ? ['200 audio/wav', '200 audio/wav', '200 audio/wav'] : []);
        // once the live effects have rung out (and a while more), the reverb they built goes (engine.ts)
        if (mode === 'live') await waitFor(page, (s) => s.audio.sends?.reverb === false, 'the reverb let go', 25_000);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
    console.log(`chime RMS: from its file ${levels.file.toFixed(4)}, live ${levels.live.toFixed(4)}`);
    expect(levels.file).toBeGreaterThan(0.003);
    expect(levels.live).toBeGreaterThan(0.003);
    // the same sound: the file holds the live effect's volume, reverb and compressor (0.34 dB apart
    // on a quiet machine; the window's start differs by the file's fetch and decode under load)
    expect(Math.abs(20 * Math.log10(levels.file / levels.live))).toBeLessThan(3);
  });

  it('an effect without a file (its spec edited since the build) plays live, and its file is not asked for again', async () => {
    const { page, errors, wavTypes } = await openFixture(pages, {
      before: async (p) => {
        await silentMusic(p);
        await editedChime(p);
      },
    });
    try {
      expect(await chimeLevel(page)).toBeGreaterThan(0.003);
      expect(await sfxCounts(page)).toEqual({ file: 0, live: 1 });
      expect(wavTypes.map((t) => t.slice(0, 3))).toEqual(['404']);
      // the other ending (the click, door, wave, page from their files), the title, and the chime again
      await playUntil(page, (s) => s.screen === 'ending', 'the ending', '2');
      await playUntil(page, (s) => s.screen === 'story' && s.text.includes('こんにちは'), 'the line before the chime again');
      await key(page, 'Enter');
      await waitFor(page, (s) => s.audio.sfx?.live === 2, 'the chime played live again');
      expect(await sfxCounts(page)).toEqual({ file: 4, live: 2 });
      expect(wavTypes.map((t) => t.slice(0, 3))).toEqual(['404', '200', '200', '200', '200']);
      expect(errors.filter((m) => !m.includes('404'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
