/**
 * Starts the API server: `npx tsx server/api/main.ts`. Configuration comes from the environment
 * (see server/api/config.ts and docs/api.md). Pending migrations are applied before listening.
 * SIGINT/SIGTERM close it gracefully: no new connections, in-flight requests finish, pool ends.
 */
import { buildApp } from './app';
import { loadConfig, redactUrl } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  let app;
  try {
    app = await buildApp({ config });
  } catch (error) {
    console.error(
      `api: cannot start: ${(error as Error).message}\n` +
        `  database: ${redactUrl(config.databaseUrl)} (DATABASE_URL). ` +
        'For the local one run: npx tsx server/dev/postgres.ts',
    );
    process.exit(1);
  }

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Do not hang forever on a stuck connection.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is already in use (set API_PORT to use another)`
        : (error as Error).message;
    console.error(`api: cannot listen: ${reason}`);
    await app.close().catch(() => {});
    process.exit(1);
  }
}

void main();
