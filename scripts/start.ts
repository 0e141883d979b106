/**
 * `npm start`: the whole product on this machine (web, api, game host, PostgreSQL, the Firebase
 * Auth and Functions emulators, the payments sandbox), with every address printed. Ctrl-C stops
 * every process it started, also during the start (stack/run.ts).
 */
import path from 'node:path';
import { REPO_ROOT, stackConfig } from './stack/config';
import { runUntilStopped } from './stack/run';
import { startStack } from './stack/stack';

async function main() {
  await runUntilStopped(
    () => startStack(stackConfig('dev')),
    (stack) => {
      console.log(`\nYumecast is running:  ${stack.urls.web}\n`);
      console.log(`  api            ${stack.urls.api}`);
      console.log(`  auth emulator  http://${stack.urls.auth}`);
      console.log(`  functions      http://${stack.urls.functions}  (emulator; callable payment-invokePaymentRequest)`);
      console.log(`  payments       ${stack.urls.paymentsSandbox}  (sandbox processor: test cards 4242 4242 4242 4242 …)`);
      console.log(`  game host      ${stack.urls.gameHost}`);
      console.log(`  database       ${stack.urls.databaseUrl}`);
      console.log(`  logs           ${path.relative(REPO_ROOT, path.join(stack.config.runDir, 'logs'))}/\n`);
    },
  );
}

void main();
