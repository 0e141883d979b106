/**
 * The native runtime end to end (issue 15) on the game host: Debian's Ren'Py running "The
 * Question" unchanged under its own Xvfb, streamed through a runtime page of the shared Chromium
 * to a real player (the WebRtcSubscriber in its own Chromium), against the fake api of the host
 * contract (testing/fake-api.ts). Checks what a player sees and does: the title screen's picture
 * (not black, 1280×720), the sound, a click on スタート and Enter changing the picture, a
 * screenshot at full resolution from the display, a save written by the game kept on the server,
 * restored into the next session's folder, and every process of the game gone at the end.
 * Skipped (with a message) where Ren'Py is not installed (scripts/setup.sh installs it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, GAMES_DIR } from '../../../runtime/build';
import { launchPlayer, startTestHost, until, type TestHost, type TestPlayer } from '../testing/harness';
import { pngSize } from '../runtime';
import { alive, isolateSession, spawnIsolated, sweepGroups } from './isolation';
import { loadNativeConfig } from './config';

jest.setTimeout(180_000);

const BASE_DIR = '/usr/share/games/renpy/the_question';
const installed = fs.existsSync(BASE_DIR) && fs.existsSync('/usr/bin/Xvfb') && fs.existsSync('/usr/games/renpy');
const maybe = installed ? describe : describe.skip;
if (!installed) console.warn(`native.int: Ren'Py or Xvfb is not installed (${BASE_DIR}): run scripts/setup.sh`);

const GAME = 'renpy-probe';
let host: TestHost;
let gamesDir = '';
const players: TestPlayer[] = [];

/** The received picture: mean brightness and a 32×18 fingerprint of 10×10-pixel cells at 320×180 (a new line of text moves several). */
async function picture(p: TestPlayer): Promise<{ w: number; h: number; mean: number; grid: number[] }> {
  return p.page.evaluate(() => {
    const v = document.querySelector('video')!;
    const c = document.createElement('canvas');
    c.width = 320;
    c.height = 180;
    const ctx = c.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(v, 0, 0, 320, 180);
    const d = ctx.getImageData(0, 0, 320, 180).data;
    const grid = new Array<number>(32 * 18).fill(0);
    let sum = 0;
    for (let y = 0; y < 180; y++)
      for (let x = 0; x < 320; x++) {
        const i = (y * 320 + x) * 4;
        const l = (d[i] + d[i + 1] + d[i + 2]) / 3;
        sum += l;
        grid[Math.floor(y / 10) * 32 + Math.floor(x / 10)] += l / 100;
      }
    return { w: v.videoWidth, h: v.videoHeight, mean: sum / (320 * 180), grid };
  });
}

/** Cells whose mean brightness moved by more than the encoder's noise. */
function differs(a: number[], b: number[]): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > 8) n++;
  return n;
}

/**
 * Does `act` until the received picture differs from what it was (at most 3 times, 8 s each): a
 * busy machine may deliver the first input while Ren'Py still runs a transition, which ignores it.
 */
async function actUntilChanged(p: TestPlayer, act: () => Promise<unknown>, what: string): Promise<number[]> {
  const before = await stillPicture(p);
  for (let i = 0; i < 3; i++) {
    await act();
    const t0 = Date.now();
    while (Date.now() - t0 < 8000) {
      const pic = await picture(p);
      if (differs(before, pic.grid) >= 4) return pic.grid;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (process.env.NATIVE_TEST_DUMP) {
    const url = await p.page.evaluate(() => {
      const v = document.querySelector('video')!;
      const c = document.createElement('canvas');
      c.width = v.videoWidth;
      c.height = v.videoHeight;
      c.getContext('2d')!.drawImage(v, 0, 0);
      return c.toDataURL('image/png');
    });
    fs.writeFileSync(process.env.NATIVE_TEST_DUMP, Buffer.from(url.split(',')[1], 'base64'));
  }
  throw new Error(`the picture did not change: ${what}`);
}

/** The picture once it has stopped changing for 800 ms (a transition or typing is over). */
async function stillPicture(p: TestPlayer): Promise<number[]> {
  let last = (await picture(p)).grid;
  let since = Date.now();
  const t0 = Date.now();
  while (Date.now() - since < 800 && Date.now() - t0 < 15_000) {
    await new Promise((r) => setTimeout(r, 100));
    const now = (await picture(p)).grid;
    if (differs(last, now) > 0) since = Date.now();
    last = now;
  }
  return last;
}

const click = (p: TestPlayer, x: number, y: number) =>
  p.page.evaluate(([px, py]) => {
    window.player.send({ v: 1, type: 'pointer', kind: 'move', x: px, y: py });
    window.player.send({ v: 1, type: 'pointer', kind: 'down', x: px, y: py, button: 0 });
    window.player.send({ v: 1, type: 'pointer', kind: 'up', x: px, y: py, button: 0 });
  }, [x, y]);
const press = (p: TestPlayer, key: 'Enter' | 'Save') =>
  p.page.evaluate((k) => {
    window.player.send({ v: 1, type: 'key', kind: 'down', key: k });
    window.player.send({ v: 1, type: 'key', kind: 'up', key: k });
  }, key);

/** Live processes naming this suite's folder (Xvfb's cookie, PulseAudio's socket, Ren'Py's save folder): other suites' games do not count. */
function gameProcs(): number {
  let n = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(gamesDir) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))) n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

/** The session's own processes as the agent counts them (its page's renderers and the game's whole group). */
async function sessionPids(id: string): Promise<number[]> {
  const info = (await host.request('GET', `/sessions/${id}`)).json.session as { footprint: { ownPids: number[] } | null };
  return info.footprint?.ownPids ?? [];
}

const allGone = (pids: number[]) => pids.every((pid) => !alive(pid) || /\) Z /.test(readStat(pid)));
function readStat(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return ') Z ';
  }
}

maybe('a Ren\'Py title streamed by the native runtime', () => {
  beforeAll(async () => {
    gamesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-native-games-'));
    // the game's user (nobody) passes through it to its run folder
    fs.chmodSync(gamesDir, 0o711);
    fs.mkdirSync(path.join(gamesDir, GAME));
    fs.writeFileSync(path.join(gamesDir, GAME, 'meta.json'), JSON.stringify({ id: GAME, title: 'The Question', runtime: { kind: 'renpy', baseDir: BASE_DIR, language: 'japanese' } }));
    host = await startTestHost({
      HOST_GAMES_DIRS: `${GAMES_DIR},${FIXTURES_DIR},${gamesDir}`,
      HOST_CAPACITY: '2',
      HOST_WARM_POOL: '1',
      HOST_NATIVE_DISPLAY_BASE: '180',
      HOST_NATIVE_DISPLAYS: '8',
      HOST_NATIVE_RUN_DIR: path.join(gamesDir, 'run'),
      HOST_SCREENSHOT_INTERVAL_MS: '500',
      HOST_JOIN_TIMEOUT_MS: '60000',
    });
    await host.agent.pool.whenWarm(1, 60_000);
  });

  afterAll(async () => {
    for (const p of players) await p.close().catch(() => undefined);
    await host?.stop();
    fs.rmSync(gamesDir, { recursive: true, force: true });
    expect(gameProcs()).toBe(0);
  });

  const sid = 'native-1';
  let p: TestPlayer;
  let pids: number[] = [];
  let kept: { slot: string; state: { format: string; name: string; data: string } } | null = null;

  it('starts the game and reports ready once it has drawn its title screen', async () => {
    const r = await host.startSession(sid, { gameId: GAME });
    expect(r.status).toBe(202);
    await until(() => host.api.states(sid).includes('ready'), 'ready', 40_000, 20);
    expect(host.api.states(sid)).toEqual(['starting', 'ready']);
    // its processes: Xvfb, PulseAudio, the X helper, parec and Ren'Py, besides the page's renderers
    expect(gameProcs()).toBeGreaterThanOrEqual(3);
    pids = await sessionPids(sid);
    expect(pids.length).toBeGreaterThanOrEqual(6);
  });

  it("streams the title screen's picture and the game's sound to the player", async () => {
    p = await launchPlayer(host.api);
    players.push(p);
    await p.join(sid);
    await p.waitForMessage('ready', 20_000);
    const pic = await until(async () => {
      const x = await picture(p);
      return x.w === 1280 && x.mean > 20 ? x : null;
    }, 'a picture', 20_000, 100);
    expect(pic).toMatchObject({ w: 1280, h: 720 });
    // sound: The Question's title music, as Opus packets with samples (not all concealment)
    const audio = await until(async () => {
      const a = await p.page.evaluate(() => window.player.audio());
      return a && a.packets > 50 && a.samples > a.concealed ? a : null;
    }, 'audio packets', 15_000, 200);
    expect(audio.packets).toBeGreaterThan(50);
    await until(() => host.api.states(sid).includes('playing'), 'playing');
  });

  it('takes the pointer and keys: スタート starts the story, Enter goes on', async () => {
    // スタート on the title screen (docs/renpy.md §3)
    await actUntilChanged(p, () => click(p, 0.06, 0.414), 'the story after スタート');
    await actUntilChanged(p, () => press(p, 'Enter'), 'the next line after Enter');
    const info = (await host.request('GET', `/sessions/${sid}`)).json.session as { counters: { inputs: number; malformed: number } };
    expect(info.counters.inputs).toBeGreaterThanOrEqual(5);
    expect(info.counters.malformed).toBe(0);
    // the lines reach the player as text too (the overlay's report → the protocol's `line`), in Japanese
    const line = await p.waitForMessage('line', 10_000, (m) => /[ぁ-んァ-ヶ一-龯]/.test(String(m.text)));
    expect(String(line.text).length).toBeGreaterThan(5);
  });

  it("offers a menu's choices as text, and a digit key takes one", async () => {
    const isMenu = (m: Record<string, unknown>) => Array.isArray(m.choices) && m.choices.length >= 2;
    for (let i = 0; i < 40 && !(await p.page.evaluate(() => window.player.messages.some((m) => Array.isArray((m as { choices?: unknown[] }).choices) && (m as { choices: unknown[] }).choices.length >= 2))); i++) {
      await press(p, 'Enter');
      await new Promise((r) => setTimeout(r, 500));
    }
    const menu = await p.waitForMessage('choices', 5000, isMenu);
    expect((menu.choices as string[])[0]).toMatch(/今すぐ/);
    await actUntilChanged(p, () => p.page.evaluate(() => {
      window.player.send({ v: 1, type: 'key', kind: 'down', key: '1' });
      window.player.send({ v: 1, type: 'key', kind: 'up', key: '1' });
    }), 'the story after the first choice');
    // the choice taken is a line of the transcript, and the choices are gone
    await p.waitForMessage('line', 10_000, (m) => m.choice === true && /今すぐ/.test(String(m.text)));
    await p.waitForMessage('choices', 10_000, (m) => Array.isArray(m.choices) && m.choices.length === 0);
  });

  it('takes a screenshot at full resolution from the display', async () => {
    const before = host.api.callsTo(/screenshots$/).length;
    await p.page.evaluate(() => window.player.send({ v: 1, type: 'screenshot', requestId: 'shot-1' }));
    const msg = await p.waitForMessage('screenshot-saved', 15_000);
    const png = host.api.screenshots.get(msg.screenshotId as string)!;
    expect(pngSize(png)).toEqual({ width: 1280, height: 720 });
    expect(host.api.callsTo(/screenshots$/).length).toBe(before + 1);
  });

  it("keeps the game's save files on the server and gives them back to the next session", async () => {
    // F7 (the overlay's binding for the player's セーブ button) opens the save screen; then its first slot
    await actUntilChanged(p, () => press(p, 'Save'), 'the save screen');
    await stillPicture(p);
    await click(p, 0.42, 0.33);
    const save = await until(() => host.api.callsTo(/saves$/).find((c) => /^rp-1-1/.test(String((c.json as { slot: string }).slot))), 'a save file kept', 20_000, 100);
    const st = (save.json as { state: { format: string; name: string; data: string } }).state;
    expect(st).toMatchObject({ format: 'renpy-file', name: expect.stringMatching(/^1-1.*\.save$/) });
    expect(Buffer.from(st.data, 'base64').subarray(0, 2).toString('latin1')).toBe('PK');
    kept = { slot: String((save.json as { slot: string }).slot), state: st };
  });

  it('ends: every process of the game is gone, and its files', async () => {
    const r = await host.request('DELETE', `/sessions/${sid}?reason=user`);
    expect(r.status).toBe(200);
    await until(() => host.agent.sessions.get(sid)?.state === 'closed', 'closed', 15_000);
    await until(() => allGone(pids), 'no process of the session', 10_000);
    expect(gameProcs()).toBe(0);
    expect(fs.readdirSync(path.join(gamesDir, 'run'))).toEqual([]);
  });

  it("puts the player's kept save files back before the next session's game starts", async () => {
    expect(kept).not.toBeNull();
    const sid2 = 'native-2';
    const r = await host.startSession(sid2, { gameId: GAME, saves: [{ slot: kept!.slot, state: kept!.state, updatedAt: new Date().toISOString() }] });
    expect(r.status).toBe(202);
    await until(() => host.api.states(sid2).includes('ready'), 'ready', 40_000, 20);
    const file = path.join(gamesDir, 'run', sid2, 'saves', kept!.state.name);
    expect(fs.readFileSync(file).equals(Buffer.from(kept!.state.data, 'base64'))).toBe(true);
    const pids2 = await sessionPids(sid2);
    await host.request('DELETE', `/sessions/${sid2}?reason=user`);
    await until(() => host.agent.sessions.get(sid2)?.state === 'closed', 'closed', 15_000);
    await until(() => allGone(pids2), 'no process of the session', 10_000);
    expect(gameProcs()).toBe(0);
  });

  it("ends what an agent that died left: its sessions' groups, by the host's prefix, and only those", async () => {
    const { cgroupRoot } = loadNativeConfig({});
    const mine = isolateSession(cgroupRoot, 'yumecast-native-test-dead-host-s1', 65534, 65534);
    const other = isolateSession(cgroupRoot, 'yumecast-native-test-other-host-s1', 65534, 65534);
    const log = path.join(gamesDir, 'sleep.log');
    const a = spawnIsolated(mine, { netns: false }, 'sleep', ['600'], { PATH: '/usr/bin:/bin' }, log);
    const b = spawnIsolated(other, { netns: false }, 'sleep', ['600'], { PATH: '/usr/bin:/bin' }, log);
    await until(() => mine.pids().length === 1 && other.pids().length === 1, 'both sleeping in their groups');
    expect(await sweepGroups(cgroupRoot, 'yumecast-native-test-dead-host-')).toBe(1);
    await until(() => !alive(a.pid!), 'the dead host\'s game ended');
    expect(alive(b.pid!)).toBe(true);
    expect(await other.kill()).toEqual([]);
    await until(() => !alive(b.pid!), 'the other ended by its own kill');
  });
});
