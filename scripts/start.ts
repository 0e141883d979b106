/**
 * `npm start`: the whole product on this machine (web, api, game host, PostgreSQL, the Firebase
 * Auth and Functions emulators, the payments sandbox), with every address printed. Ctrl-C stops
 * every process it started.
 */
import path from 'node:path';
import { REPO_ROOT, stackConfig } from './stack/config';
import { startStack, type Stack } from './stack/stack';

async function main() {
  const config = stackConfig('dev');
  let stack: Stack | null = null;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\n• stopping…');
    await stack?.stop();
    console.log('  ✓ stopped; no process left behind');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    stack = await startStack(config);
  } catch (e) {
    console.error(`\n✗ could not start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  if (stopping) return;
  console.log(`\nYumecast is running:  ${stack.urls.web}\n`);
  console.log(`  api            ${stack.urls.api}`);
  console.log(`  auth emulator  http://${stack.urls.auth}`);
  console.log(`  functions      http://${stack.urls.functions}  (emulator; callable payment-invokePaymentRequest)`);
  console.log(`  payments       ${stack.urls.paymentsSandbox}  (sandbox processor: test cards 4242 4242 4242 4242 …)`);
  console.log(`  game host      ${stack.urls.gameHost}`);
  console.log(`  database       ${stack.urls.databaseUrl}`);
  console.log(`  logs           ${path.relative(REPO_ROOT, path.join(stack.config.runDir, 'logs'))}/\n`);
  console.log('Press Ctrl-C to stop everything.');
  await new Promise(() => undefined);
}

void main();
