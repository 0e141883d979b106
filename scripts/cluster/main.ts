/**
 * `npm run cluster`: the multi-node stack on this machine (docs/cluster.md) — 2 api and 2 web
 * replicas behind HAProxy, 3 host agents, coturn, PostgreSQL and the emulators — with every
 * address printed and the control endpoint for killing and restarting members by hand.
 * Ctrl-C stops every process it started, also during the start (stack/run.ts).
 */
import path from 'node:path';
import { REPO_ROOT } from '../stack/config';
import { runUntilStopped } from '../stack/run';
import { startCluster, writeSuiteEnv } from './cluster';
import { clusterConfig } from './config';
import { startControl } from './control';

async function main() {
  const config = clusterConfig();
  await runUntilStopped(
    () => startCluster(config),
    async (cluster, beforeStop) => {
      const control = await startControl(cluster, config.controlPort, console.log);
      beforeStop(() => control.close());
      const u = cluster.urls;
      console.log(`\nThe Yumecast cluster is running:  ${u.web}\n`);
      console.log(`  web (HAProxy)  ${u.web}  → ${u.webs.join(', ')}`);
      console.log(`  api (HAProxy)  ${u.api}  → ${u.apis.join(', ')}`);
      console.log(`  game hosts     ${u.hosts.join(', ')}`);
      console.log(`  TURN (coturn)  ${u.turn.join(', ')}`);
      console.log(`  auth emulator  http://${u.auth}`);
      console.log(`  functions      http://${u.functions}`);
      console.log(`  payments       ${u.paymentsSandbox}`);
      console.log(`  database       ${u.databaseUrl}`);
      console.log(`  logs           ${path.relative(REPO_ROOT, path.join(config.stack.runDir, 'logs'))}/`);
      const suite = path.relative(REPO_ROOT, writeSuiteEnv(cluster, control));
      // the token stays in the suite's env file (mode 600), not on the console or in a terminal log
      console.log(`  control        ${control.url}  (Authorization: Bearer $CLUSTER_CONTROL_TOKEN, in ${suite})`);
      console.log(`                 e.g. curl -X POST -H "Authorization: Bearer $CLUSTER_CONTROL_TOKEN" ${control.url}/members/api-1/kill`);
      console.log(`  the suite      set -a; . ${suite}; set +a; node_modules/.bin/jest --selectProjects cluster -i\n`);
    },
  );
}

void main();
