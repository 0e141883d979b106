/**
 * Warm click → first frame for the player's side of the join, interleaved on one host (issue 11):
 * configurations that differ only on the player's side (bench/play-configs.ts: `early`, `answer`,
 * `jitter`; e.g. --config -early,-answer,after) take turns, one warm start each per round (the
 * order rotating), so the machine's load drifts alike for every arm. bench/play-latency.ts runs
 * its configurations one after the other, a fresh host each: on a shared 2-core machine minutes
 * apart, its medians moved by more than these levers give. Every host setting is the defaults
 * (HOST_* of the first configuration); a configuration with other host settings is refused.
 *
 * Per configuration: click → first frame as the bench noticed it, and as the player page's clock
 * has it (the frame presented, without the probe's answer reaching the bench), medians and the
 * list, then each segment's median (bench/play-timeline.ts). Prints figures; never fails on speed.
 *
 *   npx tsx bench/play-join.ts [--config -early,-answer,after] [--rounds 10] [--game hajimari-no-eki] [--fake]
 */
import os from 'node:os';
import { buildTestRuntime, sleep } from '../server/host/testing/harness';
import { arg, bound, finish, fmtList, machine, median, onCleanup } from './play-common';
import { describe, ms, playConfigs, printTable, type Row } from './play-configs';
import { startStackAndPlayers } from './play-stack';
import { addBreakdown, clickToFirstFrame, noBreakdowns, segmentRows, type Breakdowns } from './play-timeline';

const ROUNDS = Math.max(1, Number(arg('rounds', '10')));

interface Arm {
  noticed: number[];
  page: number[];
  segments: Breakdowns;
}

async function main(): Promise<void> {
  const configs = playConfigs('-early,-answer,after');
  const env = JSON.stringify(configs[0].hostEnv);
  const other = configs.find((c) => JSON.stringify(c.hostEnv) !== env);
  if (other) throw new Error(`${other.name} has other host settings than ${configs[0].name}: this bench compares the player's side only (bench/play-latency.ts runs host levers)`);
  bound(Number(arg('minutes', String(2 + ROUNDS * configs.length * 0.25))) * 60_000);
  await buildTestRuntime();
  const { stack, players } = await startStackAndPlayers();
  const host = await stack.startHost({ HOST_WARM_POOL: '1', HOST_CAPACITY: '2', ...configs[0].hostEnv });
  onCleanup(() => host.stop());
  const game = arg('game', 'hajimari-no-eki');
  console.log(`play join bench: ${new Date().toISOString()}, ${stack.mode} api, game ${game}, ${ROUNDS} rounds; machine: ${machine()}`);
  for (const c of configs) console.log(`  config ${describe(c)}`);
  const arms = new Map<string, Arm>(configs.map((c) => [c.name, { noticed: [], page: [], segments: noBreakdowns() }]));
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // rotate the order: no arm always goes first after the pool's refill
    const order = configs.map((_, i) => configs[(i + round) % configs.length]);
    for (const cfg of order) {
      await host.agent.pool.whenWarm(1, 120_000);
      await sleep(1500); // a real host is idle between sessions: let the new runtime settle
      loads.push(os.loadavg()[0]);
      const r = await clickToFirstFrame(stack, host, players, cfg, game);
      const arm = arms.get(cfg.name)!;
      arm.noticed.push(r.frame);
      arm.page.push(r.frame - r.segments.notice);
      addBreakdown(arm.segments, r.segments);
      console.log(`  round ${round + 1} ${cfg.name}: ${r.frame.toFixed(0)} ms (the page's clock ${(r.frame - r.segments.notice).toFixed(0)} ms), load ${os.loadavg()[0].toFixed(1)}`);
    }
  }
  const names = configs.map((c) => c.name);
  const row = (figure: string, fn: (a: Arm) => string): Row => ({ figure, values: Object.fromEntries(names.map((n) => [n, fn(arms.get(n)!)])) });
  const rows: Row[] = [
    row('click → first frame, warm (median, as the bench noticed it)', (a) => ms(median(a.noticed))),
    row('  presented, by the page\'s clock (median)', (a) => ms(median(a.page))),
    ...segmentRows(names, arms, (a) => a.segments),
  ];
  printTable(`play join (interleaved, ${ROUNDS} rounds, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})`, rows, names);
  for (const n of names) console.log(`  ${n}: the page's clock ${fmtList(arms.get(n)!.page)} ms`);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
