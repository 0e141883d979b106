/**
 * @jest-environment node
 *
 * A meta.json's "runtime" checked in one place (titleRuntime.ts parseTitleRuntime): what it
 * accepts and the reasons it gives, and its two readers agreeing on the same folder — the
 * catalogue's seed (server/api/services/catalogue/read.ts), which stops naming the file and the
 * field as its integration tests expect, and the host (server/host/native/host.ts
 * readRuntimeSpec), which starts a native game only from a runtime the catalogue accepts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_BRANDS, writeTitle } from '@/server/api/services/catalogue/fixture';
import { readTitles } from '@/server/api/services/catalogue/read';
import { readRuntimeSpec } from '@/server/host/native/host';
import { parseTitleRuntime } from './titleRuntime';

const THE_QUESTION = { kind: 'renpy', baseDir: '/usr/share/games/renpy/the_question', language: 'japanese' } as const;

describe('parseTitleRuntime', () => {
  it('takes no "runtime" and kind web as the web engine, and a Ren\'Py game with its folder and language', () => {
    expect(parseTitleRuntime(undefined)).toEqual({ ok: true, runtime: { kind: 'web' } });
    expect(parseTitleRuntime({ kind: 'web', baseDir: '/ignored' })).toEqual({ ok: true, runtime: { kind: 'web' } });
    expect(parseTitleRuntime(THE_QUESTION)).toEqual({ ok: true, runtime: THE_QUESTION });
    expect(parseTitleRuntime({ kind: 'renpy', baseDir: ' /games/x ' })).toEqual({ ok: true, runtime: { kind: 'renpy', baseDir: '/games/x' } });
  });

  it('refuses anything else, worded after the field', () => {
    const kind = '"runtime" must be an object whose "kind" is one of web, renpy';
    for (const bad of [null, 'renpy', ['renpy'], {}, { kind: 'flash' }, { kind: 7 }]) expect(parseTitleRuntime(bad)).toEqual({ ok: false, reason: kind });
    expect(parseTitleRuntime({ kind: 'renpy' })).toEqual({ ok: false, reason: '"runtime": "baseDir" must be a non-empty string' });
    expect(parseTitleRuntime({ kind: 'renpy', baseDir: '  ' })).toEqual({ ok: false, reason: '"runtime": "baseDir" must be a non-empty string' });
    expect(parseTitleRuntime({ kind: 'renpy', baseDir: 'relative/dir' })).toEqual({ ok: false, reason: '"runtime": "baseDir" must be an absolute path on the host' });
    for (const language of ['', 'Japanese', 'ja-JP', 'x'.repeat(33), 5]) {
      const r = parseTitleRuntime({ ...THE_QUESTION, language });
      expect(r.ok === false && r.reason).toMatch(/^"runtime": "language" must be a Ren'Py language name/);
    }
  });
});

describe('the catalogue and the host read the same folder alike', () => {
  let gamesDir = '';
  beforeEach(async () => {
    gamesDir = await mkdtemp(path.join(os.tmpdir(), 'yumecast-runtime-'));
  });
  afterEach(async () => {
    await rm(gamesDir, { recursive: true, force: true });
  });
  const write = (runtime: unknown) =>
    writeTitle(gamesDir, { id: 'rp', title: 'The Question', reading: 'ざ・くえすちょん', brand: FIXTURE_BRANDS[0].name, extra: runtime === undefined ? {} : { runtime } });

  it("agree on a Ren'Py title and on a web one", async () => {
    await write(THE_QUESTION);
    expect((await readTitles(gamesDir, FIXTURE_BRANDS))[0].runtime).toEqual(THE_QUESTION);
    expect(readRuntimeSpec([gamesDir], 'rp')).toEqual(THE_QUESTION);
    await write(undefined);
    expect((await readTitles(gamesDir, FIXTURE_BRANDS))[0].runtime).toEqual({ kind: 'web' });
    expect(readRuntimeSpec([gamesDir], 'rp')).toBeNull();
  });

  it('the catalogue stops naming the file and the field where the host starts no native game', async () => {
    const cases: [unknown, RegExp][] = [
      [{ kind: 'flash' }, /^games\/rp\/meta\.json: "runtime" must be an object whose "kind" is one of web, renpy$/],
      [{ kind: 'renpy', baseDir: 'relative/dir' }, /^games\/rp\/meta\.json: "runtime": "baseDir" must be an absolute path on the host$/],
      [{ ...THE_QUESTION, language: 'Japanese' }, /^games\/rp\/meta\.json: "runtime": "language" must be a Ren'Py language name/],
    ];
    for (const [runtime, message] of cases) {
      await write(runtime);
      await expect(readTitles(gamesDir, FIXTURE_BRANDS)).rejects.toThrow(message);
      expect(readRuntimeSpec([gamesDir], 'rp')).toBeNull();
    }
  });
});
