/**
 * Starts the sandbox payment processor as its own process:
 *   npx tsx server/payments/sandbox/main.ts
 * Configuration from the environment (server/payments/sandbox/config.ts; docs/payments-processor.md):
 * PAYMENTS_SANDBOX_PORT (8300), DATABASE_URL, PAYMENTS_WEBHOOK_URL, PAYMENTS_WEBHOOK_SECRET,
 * PAYMENTS_SANDBOX_SECRET_KEY, PAYMENTS_SANDBOX_ALLOWED_ORIGINS … SIGINT/SIGTERM stop it cleanly.
 */
import { startSandbox, type RunningSandbox } from './server';

async function main(): Promise<void> {
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? 'the port is already in use (set PAYMENTS_SANDBOX_PORT to use another)'
        : (error as Error).message;
    console.error(`payments sandbox: cannot start: ${reason}`);
    process.exit(1);
  }
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await sandbox.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

void main();
