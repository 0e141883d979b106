/**
 * Music loops rendered at build time (runtime/build-loops.ts, issue 11): the build writes one WAV
 * per looping score, named by the score's hash, of exactly the length the page's loop needs; a
 * repeat build takes them from the cache; a session fetches its loop through the host's page
 * server and plays it from the first note; without a file (a score edited since the build) the
 * music plays live as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import { buildAudioFiles, collectScores } from '../../runtime/build-loops';
import { LOOP_SAMPLE_RATE, LOOPS_DIR, loopFileName } from '../../runtime/src/audio/loop-file';
import { loopWindow } from '../../runtime/src/audio/loops';
import { prepareScore } from '../../runtime/src/audio/score';
import { buildTestRuntime } from '../../server/host/testing/harness';
import { dbApart, key, openFixture, runtimePagesForSuite, sleep, state, streamLevel, streamLevels, titleMusicLevel, waitFor, wavFormat } from './runtime-page';

jest.setTimeout(180_000);

const pages = runtimePagesForSuite();

describe('music loops rendered at build time', () => {
  it('the build has a 48 kHz stereo WAV for every looping score, named by its hash, as long as the loop it plays', async () => {
    const runtimeDir = await buildTestRuntime();
    const scores = collectScores([GAMES_DIR, FIXTURES_DIR]);
    expect(scores.length).toBeGreaterThanOrEqual(20);
    for (const score of scores) {
      const prepared = prepareScore(score);
      const file = path.join(runtimeDir, LOOPS_DIR, loopFileName(score));
      expect(fs.existsSync(file)).toBe(true);
      const wav = wavFormat(file);
      expect(wav).toMatchObject({ channels: 2, sampleRate: LOOP_SAMPLE_RATE, bits: 16 });
      const w = loopWindow(prepared)!;
      // (the page computes the window in Chromium's V8: a float may round a frame apart here)
      expect(Math.abs(wav!.frames - Math.ceil((w.loopS + w.tail) * LOOP_SAMPLE_RATE))).toBeLessThanOrEqual(1);
    }
    // an edited score gets another name: the page never plays a stale file
    expect(loopFileName({ ...scores[0], bpm: scores[0].bpm + 1 })).not.toBe(loopFileName(scores[0]));
  });

  it('a repeat build renders nothing: every loop comes from the cache', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-loops-'));
    try {
      const r = await buildAudioFiles({ outDir: out, gamesDirs: [FIXTURES_DIR], quiet: true, sfx: false });
      expect(r.loops).toEqual({ files: collectScores([FIXTURES_DIR]).length, rendered: 0, missing: 0 });
      expect(r.sfx).toBeNull();
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('a session plays its music from the loop file from the first note', async () => {
    const { page, errors, wavTypes } = await openFixture(pages);
    try {
      const s = await waitFor(page, (st) => st.bgm === 'theme' && st.audio.music !== null, 'the title music', 10_000);
      expect(s.audio.music).toBe('loop');
      expect(s.audio.loop).toBe('buffer');
      // the loop joins after the compressor: the live reverb and delay are never built (chain.ts)
      expect(s.audio.sends).toEqual({ reverb: false, delay: false });
      expect(wavTypes).toEqual(['200 audio/wav']);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the loop held as 16-bit samples in the worklet (?loops=pcm) sounds as the decoded buffer does, and the next track plays after it', async () => {
    const levels: Record<string, number> = {};
    for (const held of ['pcm', 'buffer'] as const) {
      const { state: s, level, errors } = await titleMusicLevel(pages, held === 'pcm' ? 'loops=pcm' : undefined, async (page) => {
        if (held !== 'pcm') return;
        // a track change: the worklet lets go of the title's samples and plays the next track's
        await key(page, 'Enter');
        for (let i = 0; i < 20; i++) {
          const st = await waitFor(page, (x) => x.screen === 'story', 'the story');
          if (st.bgm === 'night') break;
          await key(page, st.choices.length ? '1' : 'Enter');
          await sleep(150);
        }
        await waitFor(page, (st) => st.bgm === 'night' && st.audio.music === 'loop' && st.audio.loop === 'pcm', 'the night track from its loop', 10_000);
        await sleep(1500);
        expect(await streamLevel(page)).toBeGreaterThan(0.003);
      });
      expect(s.audio.loop).toBe(held);
      levels[held] = level;
      expect(errors).toEqual([]);
    }
    expect(levels.pcm).toBeGreaterThan(0.003);
    // the same music at the same level (the two start at different points of the loop)
    expect(dbApart(levels.pcm, levels.buffer)).toBeLessThan(4);
  });

  it("without an output device (?sink=none, the host's) the context runs and the stream carries the music as loud as with one", async () => {
    const levels: Record<string, number> = {};
    for (const sink of ['none', 'device'] as const) {
      const { state: s, level, errors } = await titleMusicLevel(pages, sink === 'none' ? 'sink=none' : undefined, async (page, st0) => {
        // the context's clock runs on its own timer without a device
        const t0 = st0.audio.currentTime;
        expect((await waitFor(page, (st) => st.audio.currentTime > t0 + 1, 'the context running')).audio.state).toBe('running');
      });
      expect(s.audio.output).toBe(sink);
      levels[sink] = level;
      expect(errors).toEqual([]);
    }
    expect(levels.none).toBeGreaterThan(0.003);
    expect(dbApart(levels.none, levels.device)).toBeLessThan(4);
  });

  it.each([
    ['a decoded buffer', undefined],
    ['16-bit samples in the worklet', 'loops=pcm'],
  ])('a loop file that comes late (%s): the music starts live, and the loop takes over at once where the notes are, with no gap', async (_held, query) => {
    let arrived = 0;
    const { page, errors } = await openFixture(pages, {
      query,
      before: async (p) => {
        // the loop's file 3 s late (a loaded host): past FILE_WAIT_MS the music starts live
        await p.route('**/runtime/loops/**', async (r) => {
          await sleep(3000);
          await r.continue();
          arrived = Date.now();
        });
      },
    });
    try {
      const live = await waitFor(page, (st) => st.bgm === 'theme' && st.audio.music === 'live' && st.audio.state === 'running', 'the title music, live', 10_000);
      expect(live.audio.sends?.reverb).toBe(true);
      // the published sound in 50 ms windows across the hand-over, while the state is watched
      const t0 = Date.now();
      let tookOverAt = Infinity;
      const [levels] = await Promise.all([
        streamLevels(page, { ms: 4000 }),
        // the title theme loops every 11.4 s: a hand-over at the next iteration would leave it live for seconds more
        waitFor(page, (st) => st.audio.music === 'loop', 'the loop taking over', 12_000).then(() => {
          tookOverAt = Date.now();
          expect(arrived).toBeGreaterThan(0);
          expect(tookOverAt - arrived).toBeLessThan(2000);
        }),
      ]);
      // the live notes stopped at the hand-over (the old one played them to the end of the iteration)
      const played = (await state(page)).audio.liveBeats;
      expect(played).toBeGreaterThan(0);
      await sleep(1000);
      const after = await state(page);
      expect(after.audio.music).toBe('loop');
      expect(after.audio.liveBeats).toBe(played);
      // and once nothing live has rung for a while, the reverb and the delay the live start built go (chain.ts release)
      await waitFor(page, (st) => st.audio.sends?.reverb === false && st.audio.sends?.delay === false, 'the sends let go', 20_000);
      // no gap: from the end of the live start's fade-in, the pad and the bass hold on through
      // every window, the hand-over's among them (the loop plays where the notes were)
      expect(tookOverAt - t0).toBeLessThan(3500);
      const median = [...levels].sort((a, b) => a - b)[levels.length >> 1];
      expect(median).toBeGreaterThan(0.003);
      const faded = levels.findIndex((x) => x >= median * 0.5);
      expect(faded * 50).toBeLessThan(tookOverAt - t0);
      expect(Math.min(...levels.slice(faded))).toBeGreaterThan(median * 0.25);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('without a file the music plays live, and nothing breaks', async () => {
    const { page, errors, wavTypes } = await openFixture(pages, {
      before: async (p) => {
        await p.route('**/runtime/loops/**', (r) => r.fulfill({ status: 404, body: 'not found' }));
      },
    });
    try {
      await waitFor(page, (st) => st.bgm === 'theme' && st.audio.music !== null, 'the title music', 10_000);
      await sleep(500);
      const s = await waitFor(page, (st) => st.audio.state === 'running', 'audio running');
      expect(s.audio.music).toBe('live');
      // the live voices need the reverb (the piano's send): built when they first connected
      expect(s.audio.sends?.reverb).toBe(true);
      expect(wavTypes.map((t) => t.slice(0, 3))).toEqual(['404']);
      expect(errors.filter((m) => !m.includes('404'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
