/**
 * The light worker's bundle files in a host's tmpDir (worker-bundle.ts): an agent that died
 * unclean leaves its bundle; the next agent's start removes it, and never a living agent's.
 * In Node (esbuild, which the module loads, refuses jsdom's TextEncoder).
 *
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeWorkerBundle, sweepStaleBundles } from './worker-bundle';

it("removes the bundles of agents that are gone, not a living one's or other files", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-bundles-'));
  try {
    const gone = 4_194_000 + Math.floor(Math.random() * 300); // above the machine's pid_max (32768; Linux's most is 4194304)
    const files = [`yumecast-light-worker-${gone}.cjs`, `yumecast-light-worker-${process.pid}.cjs`, `yumecast-light-worker-1.cjs`, 'yumecast-light-worker-x.cjs', 'other.cjs'];
    for (const f of files) fs.writeFileSync(path.join(dir, f), '');
    expect(sweepStaleBundles(dir)).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual(files.slice(1).sort());
    removeWorkerBundle(dir);
    expect(fs.existsSync(path.join(dir, `yumecast-light-worker-${process.pid}.cjs`))).toBe(false);
    expect(sweepStaleBundles(path.join(dir, 'missing'))).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
