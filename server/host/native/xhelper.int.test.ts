/**
 * The native runtime's X helper (xhelper.py through XHelper) against real parts: an Xvfb of
 * Ren'Py's 1382×822 screen, and a real X client (testing/xclient.py) mapping a 1280×720 window at
 * +51+51 — the rectangle the helper grabs and injects into. Checks the hello, full and partial
 * band updates against what the client painted, silence while the picture is still, input reaching
 * the client inside the rectangle, screenshots, malformed commands, a clean close (no process, no
 * shm segment), the XGetImage fallback when the X server cannot attach the segment, and exit 2
 * when the display dies. Prints the figures of docs/renpy.md's open questions: grab time, the
 * helper's CPU idle and under change, and command-to-client latency.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BAND_ROWS, XHelper, bgrxToRgba, type FrameUpdate, type XHelperLog } from './xhelper';
import {
  PYTHON, XClient, XVFB, alive, cpuSeconds, rgbAt, shmSegmentsOf, sleep, startXvfb, until, type XDisplay,
} from './testing/xenv';

jest.setTimeout(60_000);

const HAVE_XVFB = fs.existsSync(XVFB) && fs.existsSync(PYTHON);
if (!HAVE_XVFB) console.warn(`xhelper.int.test: SKIPPED — ${XVFB} or ${PYTHON} is missing (apt-get install xvfb python3-xlib)`);
const suite = HAVE_XVFB ? describe : describe.skip;

const W = 1280;
const H = 720;
const RECT = { x: 51, y: 51, width: W, height: H };

suite('xhelper (real Xvfb and X client)', () => {
  let dir: string;
  let x: XDisplay;
  let client: XClient;
  let helper: XHelper;
  const frames: FrameUpdate[] = [];
  const arrivals: number[] = []; // performance.now() of each frame, for the gaps between updates
  const logs: XHelperLog[] = [];
  const picture = Buffer.alloc(W * H * 4);
  const extra: { stop(): Promise<void> }[] = [];

  const apply = (f: FrameUpdate) => {
    for (const b of f.bands) b.data.copy(picture, b.y * W * 4);
  };
  const nextFrame = (from: number) => until(() => frames[from], 3000, 'a frame update');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-xhelper-'));
    x = await startXvfb(dir);
    client = await XClient.start(x.env);
    await client.fill(0, 0, W, H, 0x000000);
    await client.fill(200, 300, 100, 50, 0x3366cc);
    helper = await XHelper.start({ rect: RECT, env: x.env });
    helper.on('frame', (f: FrameUpdate) => (frames.push(f), arrivals.push(performance.now()), apply(f)));
    helper.on('log', (l: XHelperLog) => logs.push(l));
  });

  afterAll(async () => {
    await helper?.close();
    for (const e of extra) await e.stop();
    await client?.stop();
    await x?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says hello with the rectangle, MIT-SHM and DAMAGE', () => {
    expect(helper.info).toEqual({ width: W, height: H, shm: true, damage: true });
    expect(alive(helper.pid)).toBe(true);
  });

  it('sends every band first, with the pixels the client painted (BGRX)', async () => {
    const first = await nextFrame(0);
    expect(first.full).toBe(true);
    expect(first.bands).toHaveLength(Math.ceil(H / BAND_ROWS));
    expect(first.bands.map((b) => b.y)).toEqual(Array.from({ length: 45 }, (_, i) => i * 16));
    expect(first.bands.every((b) => b.rows === 16 && b.data.length === 16 * W * 4)).toBe(true);
    const band = first.bands[Math.floor(320 / 16)];
    const i = ((320 - band.y) * W + 250) * 4;
    expect([...band.data.subarray(i, i + 3)]).toEqual([0xcc, 0x66, 0x33]); // B, G, R of 0x3366cc
    expect(rgbAt(picture, W, 250, 320)).toBe(0x3366cc);
    expect(rgbAt(picture, W, 199, 320)).toBe(0);
    expect(rgbAt(picture, W, 0, 0)).toBe(0);
    expect(helper.counters()).toMatchObject({ frames: 1, bands: 45, bytes: 6 + 45 * 4 + W * H * 4 });
  });

  it('sends only the bands a fill touched', async () => {
    const from = frames.length;
    await client.fill(600, 401, 40, 10, 0xff8040); // rows 401..410: band 400 only
    const f = await nextFrame(from);
    expect(f.full).toBe(false);
    expect(f.bands.map((b) => b.y)).toEqual([400]);
    expect(rgbAt(picture, W, 610, 405)).toBe(0xff8040);
    const from2 = frames.length;
    await client.fill(10, 30, 20, 10, 0x00ff00); // rows 30..39: bands 16 and 32
    const g = await nextFrame(from2);
    expect(g.bands.map((b) => b.y)).toEqual([16, 32]);
    expect(g.seq).toBeGreaterThan(f.seq);
    expect(rgbAt(picture, W, 15, 35)).toBe(0x00ff00);
  });

  it('sends nothing while the picture is still (3 s: safety polls included)', async () => {
    await sleep(200);
    const from = frames.length;
    const cpu0 = cpuSeconds(helper.pid);
    await sleep(3000);
    const idle = (cpuSeconds(helper.pid) - cpu0) / 3;
    expect(frames.length).toBe(from);
    console.log(`FIGURE helper CPU idle (static picture): ${(idle * 100).toFixed(1)} % of a core`);
    expect(idle).toBeLessThan(0.05);
  });

  it('sends again what full() asks for: every band', async () => {
    const from = frames.length;
    helper.full();
    const f = await nextFrame(from);
    expect(f.full).toBe(true);
    expect(f.bands).toHaveLength(45);
  });

  it('injects pointer, buttons, wheel and keys inside the rectangle', async () => {
    let from = client.events.length;
    helper.move(1, 1);
    const m = await until(() => client.since(from, 'motion')[0], 3000, 'motion');
    expect([m.rootX, m.rootY, m.x, m.y]).toEqual([1330, 770, 1279, 719]);
    from = client.events.length;
    helper.move(-5, 7); // clamped to the rectangle's bottom-left corner
    const c = await until(() => client.since(from, 'motion')[0], 3000, 'motion');
    expect([c.x, c.y]).toEqual([0, 719]);

    from = client.events.length;
    helper.button(1, true, 0.25, 0.5);
    helper.button(1, false, 0.25, 0.5);
    helper.button(3, true, 0, 0);
    helper.button(3, false, 0, 0);
    const buttons = await until(() => client.since(from, 'button').length >= 4 && client.since(from, 'button'), 3000, 'buttons');
    expect(buttons.map((b) => [b.button, b.down, b.x, b.y])).toEqual([
      [1, true, 320, 360], [1, false, 320, 360], [3, true, 0, 0], [3, false, 0, 0],
    ]);

    from = client.events.length;
    helper.wheel(250); // round(2.5) = 3 clicks of button 5
    helper.wheel(-20); // at least one click of button 4
    helper.wheel(5000); // capped at 10
    const wheel = await until(() => client.since(from, 'button').length >= 28 && client.since(from, 'button'), 3000, 'wheel');
    const presses = wheel.filter((b) => b.down).map((b) => b.button);
    expect(presses).toEqual([5, 5, 5, 4, ...Array(10).fill(5)]);

    from = client.events.length;
    for (const k of ['Return', 'space', 'Control_L', 'Prior', 'F6', 'a', '1']) {
      helper.key(k, true);
      helper.key(k, false);
    }
    const keys = await until(() => client.since(from, 'key').length >= 14 && client.since(from, 'key'), 3000, 'keys');
    // Keysyms as numbers (Prior and Page_Up are one keysym, 0xff55): Return, space, Control_L, Prior, F6, a, 1.
    expect(keys.filter((k) => k.down).map((k) => k.keysym)).toEqual([0xff0d, 0x20, 0xffe3, 0xff55, 0xffc3, 0x61, 0x31]);
    expect(keys.filter((k) => !k.down)).toHaveLength(7);
  });

  it('measures command → client latency', async () => {
    const lat: number[] = [];
    for (let i = 0; i < 30; i++) {
      const from = client.events.length;
      const t0 = Date.now();
      helper.move((i % 10) / 10 + 0.05, 0.5);
      const m = await until(() => client.since(from, 'motion')[0], 3000, 'motion');
      lat.push((m.t as number) - t0);
      await sleep(20);
    }
    lat.sort((a, b) => a - b);
    console.log(`FIGURE command → client receipt (move): median ${lat[15].toFixed(2)} ms, max ${lat[29].toFixed(2)} ms`);
    expect(lat[15]).toBeLessThan(50);
  });

  it('refuses modifiers and unknown keysyms, survives malformed commands', async () => {
    const from = client.events.length;
    const logFrom = logs.length;
    helper.key('Shift_L', true);
    helper.key('NoSuchKeysym', true);
    helper.key('Shift_L', true); // one warning per keysym
    helper.move(NaN, 0.5);
    helper.button(7 as 1, true, 0.5, 0.5);
    helper.wheel(Infinity);
    const stdin = (helper as unknown as { child: { stdin: NodeJS.WritableStream } }).child.stdin;
    stdin.write('not json\n{"op":"nope"}\n[1,2]\n{"op":"key","keysym":"a; rm -rf /","down":true}\n\n');
    stdin.write(`${'x'.repeat(10000)}\n`);
    helper.key('b', true);
    helper.key('b', false);
    const keys = await until(() => client.since(from, 'key').length >= 2 && client.since(from, 'key'), 3000, 'key b');
    expect(keys.map((k) => k.name)).toEqual(['b', 'b']);
    expect(client.since(from, 'button')).toEqual([]);
    const warns = logs.slice(logFrom).filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warns.filter((m) => m.includes("'Shift_L'"))).toHaveLength(1);
    expect(warns.some((m) => m.includes("'NoSuchKeysym'"))).toBe(true);
    expect(warns.length).toBeGreaterThanOrEqual(5);
    expect(alive(helper.pid)).toBe(true);
    expect(helper.code).toBeNull();
  });

  it('takes a screenshot equal to the streamed picture', async () => {
    await client.fill(1000, 700, 280, 20, 0xabcdef); // the last band
    await until(() => rgbAt(picture, W, 1279, 719) === 0xabcdef, 3000, 'the last band');
    const shot = await helper.screenshot();
    expect(shot.length).toBe(W * H * 4);
    expect(shot.equals(picture)).toBe(true);
    const rgba = bgrxToRgba(shot);
    const i = (719 * W + 1279) * 4;
    expect([...rgba.subarray(i, i + 4)]).toEqual([0xab, 0xcd, 0xef, 255]);
  });

  it('keeps its CPU low while one band changes 30 times a second', async () => {
    const from = frames.length;
    const cpu0 = cpuSeconds(helper.pid);
    client.send({ op: 'animate', hz: 30, seconds: 3, y: 196, h: 10 }); // rows 196..205: band 192
    const done = await until(() => client.events.find((e) => e.ev === 'animated'), 10_000, 'the animation');
    const busy = (cpuSeconds(helper.pid) - cpu0) / 3;
    const updates = frames.slice(from);
    console.log(
      `FIGURE helper CPU with one band changing 30×/s: ${(busy * 100).toFixed(1)} % of a core; ` +
        `${updates.length} updates for ${String(done.frames)} repaints`,
    );
    expect(updates.length).toBeGreaterThan(45); // ≥ half of the 90 repaints (coalesced at 33 ms)
    expect(updates.every((f) => f.bands.length === 1 && f.bands[0].y === 192)).toBe(true);
    expect(busy).toBeLessThan(0.5);
  });

  it('keeps up when the whole picture changes 30 times a second (a transition)', async () => {
    const from = frames.length;
    const cpu0 = cpuSeconds(helper.pid);
    const t0 = process.cpuUsage();
    const before = client.events.filter((e) => e.ev === 'animated').length;
    const start = performance.now();
    client.send({ op: 'animate', hz: 30, seconds: 2, y: 0, h: H });
    const done = await until(() => client.events.filter((e) => e.ev === 'animated')[before], 10_000, 'the animation');
    const busy = (cpuSeconds(helper.pid) - cpu0) / 2;
    const node = process.cpuUsage(t0);
    const updates = frames.slice(from);
    console.log(
      `FIGURE whole picture changing 30×/s: helper ${(busy * 100).toFixed(1)} % of a core, this Node process (parser + the test's bookkeeping) ` +
        `${((node.user + node.system) / 2e4).toFixed(1)} %; ${updates.length} updates (${updates.filter((f) => f.full).length} with all 45 bands) ` +
        `for ${String(done.frames)} repaints`,
    );
    // How many updates arrive depends on how fast this process reads (the helper coalesces what a
    // slow reader has not taken: 49 of 60 on an idle machine, 11 of 60 in a loaded CI run). What
    // counts, on any machine, is that updates keep coming (no gap of a second: not a stall) and
    // that each is the whole picture (not torn bands).
    const times = arrivals.slice(from);
    const gaps = times.map((t, i) => t - (i === 0 ? start : times[i - 1]));
    console.log(`FIGURE   longest wait for an update during it: ${Math.max(...gaps).toFixed(0)} ms`);
    expect(updates.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...gaps)).toBeLessThan(1000);
    expect(updates.filter((f) => f.full).length).toBeGreaterThanOrEqual(Math.ceil(updates.length * 0.8));
  });

  it('measures grab time: MIT-SHM, XGetImage, python3-xlib', () => {
    const r = spawnSync(PYTHON, [path.join(__dirname, 'testing', 'grabbench.py'), '51,51,1280,720', '50'], { env: x.env as NodeJS.ProcessEnv, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const f = JSON.parse(r.stdout) as Record<string, number | boolean>;
    console.log(`FIGURE grab of 1280×720 (ms per call): ${JSON.stringify(f)}`);
    expect(f.shm).toBe(true);
    expect(f.shmMs as number).toBeLessThan(f.getImageMs as number);
  });

  it('falls back to XGetImage when the X server cannot attach the segment; SHM again under its uid', async () => {
    // An Xvfb running as nobody cannot shmat a 0600 segment of ours (root): XShmAttach → BadAccess.
    const other = await startXvfb(dir, { uid: 65534, gid: 65534 });
    extra.push(other);
    fs.chmodSync(dir, 0o755);
    const h = await XHelper.start({ rect: { x: 0, y: 0, width: 640, height: 360 }, env: other.env, wrap: ['sh', '-c', 'exec "$@"', 'sh'] });
    expect(h.info).toEqual({ width: 640, height: 360, shm: false, damage: true });
    const shot = await h.screenshot();
    expect(shot.length).toBe(640 * 360 * 4);
    await h.close();
    expect(h.code).toBe(0);
    // The same uid as that X server (the session's uid, as the agent runs both): MIT-SHM works again.
    const same = await XHelper.start({ rect: { x: 0, y: 0, width: 640, height: 360 }, env: other.env, uid: 65534, gid: 65534 });
    expect(same.info.shm).toBe(true);
    expect((await same.screenshot()).equals(shot)).toBe(true);
    await same.close();
    expect(same.code).toBe(0);
  });

  it('exits 2 with one error when the display dies', async () => {
    const other = await startXvfb(dir);
    extra.push(other);
    const h = await XHelper.start({ rect: { x: 0, y: 0, width: 64, height: 64 }, env: other.env });
    const hlogs: XHelperLog[] = [];
    h.on('log', (l: XHelperLog) => hlogs.push(l));
    const code = new Promise((r) => h.once('exit', r));
    other.xvfb.kill('SIGKILL');
    expect(await code).toBe(2);
    expect(hlogs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual(['X connection lost']);
    await expect(h.screenshot()).rejects.toThrow(/exited/);
  });

  it('refuses a rectangle outside the screen, bad arguments and a display it cannot open', async () => {
    await expect(XHelper.start({ rect: { x: 200, y: 51, width: W, height: H }, env: x.env })).rejects.toThrow(
      'x helper exited (1) before its hello: rect 200,51,1280,720 is not inside the 1382x822 screen',
    );
    await expect(XHelper.start({ rect: RECT, env: x.env, pollMs: 0 })).rejects.toThrow(/exited \(1\) before its hello: .*--poll-ms: 1\.\.60000.*bad arguments/);
    await expect(XHelper.start({ rect: RECT, env: { DISPLAY: ':149.7', XAUTHORITY: '/nonexistent' } })).rejects.toThrow(
      "exited (2) before its hello: cannot open display ':149.7'",
    );
  });

  it('closes: exit 0, no process and no shm segment left', async () => {
    const segments = shmSegmentsOf(helper.pid);
    expect(segments.length).toBe(1); // the grab segment, IPC_RMID'd but attached while running
    const pid = helper.pid;
    await helper.close();
    expect(helper.code).toBe(0);
    expect(alive(pid)).toBe(false);
    expect(shmSegmentsOf(pid)).toEqual([]);
    await expect(helper.screenshot()).rejects.toThrow(/exited/);
  });
});

describe('XHelper stdout parser (a fake helper: no X needed)', () => {
  // The fake replaces the helper through `wrap`: python3 -c <code> gets the real argv as its own.
  const fake = (code: string) => ({ rect: { x: 0, y: 0, width: 2, height: 20 }, env: {}, wrap: [PYTHON, '-c', code] });
  const PRELUDE = [
    'import json, os, struct, sys, time',
    'def msg(t, p): return t + struct.pack("<I", len(p)) + p',
    'hello = msg(b"H", json.dumps({"width": 2, "height": 20, "shm": True, "damage": False}).encode())',
    'band = lambda y, rows: struct.pack("<HH", y, rows) + bytes([y]) * (rows * 2 * 4)',
  ].join('\n');

  it('reads messages split byte by byte and several in one write', async () => {
    const code = [
      PRELUDE,
      'for b in hello: os.write(1, bytes([b])); time.sleep(0.001)',
      'full = msg(b"F", struct.pack("<IH", 1, 2) + band(0, 16) + band(16, 4))',
      'logs = msg(b"L", b\'{"level":"info","message":"one"}\') + msg(b"L", b\'{"level":"warn","message":"two"}\')',
      'os.write(1, full + logs + msg(b"F", struct.pack("<IH", 2, 1) + band(16, 4)))',
      'sys.stdin.read()',
    ].join('\n');
    const h = await XHelper.start(fake(code));
    const frames: FrameUpdate[] = [];
    const logs: XHelperLog[] = [];
    h.on('frame', (f: FrameUpdate) => frames.push(f));
    h.on('log', (l: XHelperLog) => logs.push(l));
    await until(() => frames.length === 2, 3000, 'two frames');
    expect(frames.map((f) => [f.seq, f.full, f.bands.map((b) => [b.y, b.rows, b.data.length, b.data[0]])])).toEqual([
      [1, true, [[0, 16, 128, 0], [16, 4, 32, 16]]],
      [2, false, [[16, 4, 32, 16]]],
    ]);
    expect(logs).toEqual([{ level: 'info', message: 'one' }, { level: 'warn', message: 'two' }]);
    await h.close();
    expect(h.code).toBe(0);
  });

  it('kills a helper that announces a message longer than W×H×4 + headers', async () => {
    const h = await XHelper.start(fake([PRELUDE, 'os.write(1, hello + b"F" + struct.pack("<I", 10**6))', 'time.sleep(30)'].join('\n')));
    const logs: XHelperLog[] = [];
    h.on('log', (l: XHelperLog) => logs.push(l));
    const code = await new Promise((r) => h.once('exit', r));
    expect(code).toBe(-1); // SIGKILL
    expect(logs.map((l) => l.message)).toEqual(['x helper protocol error: message of 1000000 bytes']);
    expect(alive(h.pid)).toBe(false);
  });

  it('rejects start when the helper exits before its hello, with its last log', async () => {
    await expect(XHelper.start(fake([PRELUDE, 'os.write(1, msg(b"L", b\'{"level":"error","message":"no display"}\'))', 'sys.exit(2)'].join('\n'))))
      .rejects.toThrow('x helper exited (2) before its hello: no display');
  });
});
