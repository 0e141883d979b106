/**
 * `npm test`: lint, typecheck, the structure check (no import cycle, no oversized file), unit
 * tests, then the real stack (PostgreSQL, Auth and Functions emulators, api, payments sandbox,
 * game host, web) for the integration and Playwright suites; tears it all down and checks that no
 * process of it is left; then, with the test stack gone (the machine's cores are the cluster's),
 * the multi-node stack (scripts/cluster/: api and web replicas behind HAProxy, three hosts,
 * coturn) for the cluster suite, torn down and checked the same way. Ends with one line
 * "N passed, N failed" summing every suite.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { assertPortFree } from '../server/dev/ports';
import { startCluster, suiteEnv, type Cluster } from './cluster/cluster';
import { clusterConfig } from './cluster/config';
import { startControl, type ControlServer } from './cluster/control';
import { REPO_ROOT, stackConfig, testSlot } from './stack/config';
import { stopEveryProcess } from './stack/process';
import { startStack, type Stack } from './stack/stack';

interface Tally {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
}

const tallies: Tally[] = [];
const BIN = path.join(REPO_ROOT, 'node_modules', '.bin');
const config = stackConfig('test');
const outDir = path.join(config.runDir, 'results');

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, env, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(127));
  });
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

async function check(name: string, cmd: string, args: string[]) {
  console.log(`\n━━ ${name} ━━`);
  const code = await run(cmd, args);
  tallies.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 });
}

async function jest(project: 'unit' | 'integration' | 'cluster', env: NodeJS.ProcessEnv) {
  console.log(`\n━━ jest ${project} ━━`);
  const file = path.join(outDir, `jest-${project}.json`);
  fs.rmSync(file, { force: true });
  // JEST_ARGS narrows a local run (e.g. JEST_ARGS="server/api/routes"); CI never sets it.
  const extra = (process.env.JEST_ARGS ?? '').split(/\s+/).filter(Boolean);
  // The cluster suite's cases run in order on one cluster (-i: in band).
  const inBand = project === 'cluster' ? ['-i'] : [];
  const code = await run(path.join(BIN, 'jest'), ['--selectProjects', project, '--json', `--outputFile=${file}`, '--passWithNoTests', ...inBand, ...extra], env);
  const r = readJson<{ numPassedTests: number; numFailedTests: number; numPendingTests: number; numRuntimeErrorTestSuites: number }>(file);
  if (!r) tallies.push({ name: `jest ${project}`, passed: 0, failed: 1, skipped: 0 });
  else
    tallies.push({
      name: `jest ${project}`,
      passed: r.numPassedTests,
      failed: r.numFailedTests + r.numRuntimeErrorTestSuites + (code !== 0 && r.numFailedTests === 0 && r.numRuntimeErrorTestSuites === 0 ? 1 : 0),
      skipped: r.numPendingTests,
    });
}

function serviceEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // FUNCTIONS_EMULATOR_HOST: the callable functions' suites call the stack's Functions emulator
  // (whose functions forward to the stack's api).
  const keys = ['DATABASE_URL', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_PROJECT_ID', 'GCLOUD_PROJECT', 'METADATA_SERVER_DETECTION', 'NEXT_TELEMETRY_DISABLED', 'FUNCTIONS_EMULATOR_HOST'];
  return Object.fromEntries(keys.filter((k) => env[k] !== undefined).map((k) => [k, env[k]])) as NodeJS.ProcessEnv;
}

async function playwright(stack: Stack) {
  console.log('\n━━ playwright ━━');
  const file = path.join(outDir, 'playwright.json');
  fs.rmSync(file, { force: true });
  const env = { ...stack.env, BASE_URL: stack.urls.web, API_URL: stack.urls.api, HOST_URL: stack.urls.gameHost, PLAYWRIGHT_JSON_OUTPUT_NAME: file };
  // PW_ARGS narrows a local run (e.g. PW_ARGS="--project=phone e2e/play.spec.ts"); CI never sets it.
  const extra = (process.env.PW_ARGS ?? '').split(/\s+/).filter(Boolean);
  const code = await run(path.join(BIN, 'playwright'), ['test', '--reporter=list,json', ...extra], env);
  const r = readJson<{ stats: { expected: number; unexpected: number; flaky: number; skipped: number } }>(file);
  if (!r) tallies.push({ name: 'playwright', passed: 0, failed: 1, skipped: 0 });
  else
    tallies.push({
      name: 'playwright',
      passed: r.stats.expected + r.stats.flaky,
      failed: r.stats.unexpected + (code !== 0 && r.stats.unexpected === 0 ? 1 : 0),
      skipped: r.stats.skipped,
    });
}

/** Chromium, PostgreSQL, the proxies' and the native runtime's processes alive now (pid → command line), read from /proc. */
function liveProcesses(): Map<number, string> {
  const out = new Map<number, string>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (/chromium|chrome|postgres|firebase|next-server|haproxy|turnserver|Xvfb|pulseaudio|parec|renpy-py311|xhelper\.py/.test(cmd)) out.set(Number(name), cmd);
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Live processes (pid → command line) in any of these process groups, whatever they run. */
function processesInGroups(groups: number[]): Map<number, string> {
  const out = new Map<number, string>();
  if (groups.length === 0) return out;
  const wanted = new Set(groups);
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (!wanted.has(pgrp)) continue;
      out.set(Number(name), fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim());
    } catch {
      /* gone */
    }
  }
  return out;
}

/** After teardown nothing the stack (or the cluster) or the suites started may remain. */
async function checkNoLeaks(before: Map<number, string>, groups: number[], name = 'no leftovers') {
  console.log(`\n━━ leftover processes${name.slice('no leftovers'.length)} ━━`);
  let leaked: string[] = [];
  for (let i = 0; i < 20; i++) {
    const ours = processesInGroups(groups);
    leaked = [...new Map([...liveProcesses(), ...ours])]
      .filter(([pid]) => !before.has(pid))
      // With TEST_SLOT, other slots' stacks may be running beside this one: only ours count
      // (started in our process groups, or naming our run folder, data or build).
      .filter(([pid, cmd]) => !testSlot() || ours.has(pid) || [config.runDir, config.pgDataDir, config.distDir].some((p) => cmd.includes(p)))
      .map(([pid, cmd]) => `${pid} ${cmd.slice(0, 160)}`);
    if (leaked.length === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (leaked.length) console.log(`✗ still running after teardown:\n  ${leaked.join('\n  ')}`);
  else console.log('✓ none');
  tallies.push({ name, passed: leaked.length ? 0 : 1, failed: leaked.length ? 1 : 0, skipped: 0 });
}

/**
 * The multi-node stack and its suite (test/cluster/, docs/cluster.md): a fresh database, the
 * cluster up, its control endpoint for the suite (kill / start / restart members), then down.
 */
async function clusterSuite() {
  // a cluster of its own (ports, build, data), beside any `npm run cluster` (scripts/cluster/config.ts)
  const c = clusterConfig(process.env, 'test');
  console.log('\n━━ starting the cluster ━━');
  const pgFree = await assertPortFree(c.stack.pgPort, 'PostgreSQL of the cluster').then(
    () => true,
    (error: Error) => (console.error(`✗ the cluster did not start: ${error.message}`), false),
  );
  if (!pgFree) {
    tallies.push({ name: 'cluster', passed: 0, failed: 1, skipped: 0 });
    return;
  }
  fs.rmSync(c.stack.pgDataDir, { recursive: true, force: true });
  const before = liveProcesses();
  let cluster: Cluster | null = null;
  let control: ControlServer | null = null;
  const stopAll = async () => {
    await control?.close();
    await (cluster ? cluster.stop() : stopEveryProcess());
  };
  const onSignal = () => void stopAll().then(() => process.exit(130));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const started = Date.now();
  try {
    cluster = await startCluster(c);
    control = await startControl(cluster, 0, (l) => console.log(l));
  } catch (e) {
    console.error(`✗ the cluster did not start: ${e instanceof Error ? e.message : String(e)}`);
    tallies.push({ name: 'cluster', passed: 0, failed: 1, skipped: 0 });
    await stopAll();
    return;
  }
  console.log(`  ✓ cluster up in ${Math.round((Date.now() - started) / 1000)} s`);
  try {
    await jest('cluster', { ...process.env, ...suiteEnv(cluster, control) });
  } finally {
    console.log('\n━━ stopping the cluster ━━');
    await stopAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  await checkNoLeaks(before, cluster.processGroups, 'no leftovers (cluster)');
}

function summary(): number {
  console.log('\n━━ summary ━━');
  for (const t of tallies) console.log(`  ${t.name.padEnd(22)} ${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`);
  const passed = tallies.reduce((a, t) => a + t.passed, 0);
  const failed = tallies.reduce((a, t) => a + t.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  if (testSlot()) fs.mkdirSync(path.join(config.runDir, 'host-tmp'), { recursive: true });
  const only = process.argv.slice(2);
  const want = (s: string) => only.length === 0 || only.includes(s);

  if (want('lint')) await check('lint', path.join(BIN, 'eslint'), ['.', '--max-warnings=0']);
  if (want('typecheck')) await check('typecheck', path.join(BIN, 'tsc'), ['--noEmit', '-p', 'tsconfig.json']);
  // Import cycles and oversized files (scripts/checks/structure.ts, docs/architecture.md).
  if (want('structure')) await check('structure', path.join(BIN, 'tsx'), ['scripts/checks/structure.ts']);
  if (want('unit')) await jest('unit', process.env);

  if (want('integration') || want('e2e')) {
    // Tests start from an empty database every run; the dev data in .data/postgres is untouched.
    // Never under a running test stack: a PostgreSQL still on this port may be serving that
    // data folder, and removing it would break the run it belongs to.
    const pgFree = await assertPortFree(config.pgPort, 'PostgreSQL of the test stack').then(
      () => true,
      (error: Error) => (console.error(`✗ the test stack did not start: ${error.message}`), false),
    );
    if (!pgFree) {
      tallies.push({ name: 'stack', passed: 0, failed: 1, skipped: 0 });
      process.exit(summary());
    }
    fs.rmSync(config.pgDataDir, { recursive: true, force: true });
    const before = liveProcesses();
    console.log('\n━━ starting the test stack ━━');
    let stack: Stack | null = null;
    const onSignal = async () => {
      // still starting: nothing holds the stack yet, so stop every process started so far
      await (stack ? stack.stop() : stopEveryProcess());
      process.exit(130);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      stack = await startStack(config);
    } catch (e) {
      console.error(`✗ the test stack did not start: ${e instanceof Error ? e.message : String(e)}`);
      tallies.push({ name: 'stack', passed: 0, failed: 1, skipped: 0 });
    }
    if (stack) {
      try {
        // Integration suites build their own servers: they get the shared services' addresses,
        // not the stack's own settings (ports, origins), which would leak into their configs.
        if (want('integration')) await jest('integration', { ...process.env, ...serviceEnv(stack.env) });
        if (want('e2e')) await playwright(stack);
      } finally {
        console.log('\n━━ stopping the test stack ━━');
        await stack.stop();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      await checkNoLeaks(before, stack.processGroups);
    }
  }
  // After the test stack is down: the cluster needs the machine's cores to itself.
  if (want('cluster')) await clusterSuite();
  process.exit(summary());
}

void main();
