/**
 * The catalogue: its seed and its services. At start it seeds brands, titles (the `games` table
 * that sessions start from) and articles from GAMES_DIR and CONTENT_DIR (services/catalogue/seed.ts).
 * The api starts (and /health answers 503) while PostgreSQL is down: the seed is then retried
 * every SESSION_SWEEP_INTERVAL_MS until it reaches the database. The snapshot is loaded when the
 * app is ready and again after every seed; with PostgreSQL down at start, the first read loads it.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../db/pool';
import { MyListService } from '../services/catalogue/mylist';
import { defaultContentDir, seedCatalogue } from '../services/catalogue/seed';
import { CatalogueService } from '../services/catalogue/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Public catalogue and magazine reads (services/catalogue/service.ts). */
    catalogue: CatalogueService;
    /** Bookmarks and play history of verified users (services/catalogue/mylist.ts). */
    mylist: MyListService;
  }
}

async function cataloguePlugin(app: FastifyInstance): Promise<void> {
  const { gamesDir, sweepIntervalMs } = app.config.sessions;
  let seeded = false;
  const seed = async (): Promise<void> => {
    const { titles } = await seedCatalogue(app.db, { gamesDir, contentDir: defaultContentDir() });
    seeded = true;
    app.log.info({ games: titles.length, dir: gamesDir }, 'games seeded');
  };
  try {
    await seed();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    app.log.warn({ err: error }, 'games not seeded yet: database unavailable');
  }

  const catalogue = new CatalogueService(app.db, app.log.child({ component: 'catalogue' }));
  app.decorate('catalogue', catalogue);
  app.decorate('mylist', new MyListService(app.db, catalogue));

  let retry: NodeJS.Timeout | undefined;
  let seeding: Promise<void> | null = null;
  app.addHook('onReady', async () => {
    try {
      await catalogue.snapshot();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      app.log.warn({ err: error }, 'catalogue not loaded yet: database unavailable');
    }
    if (seeded) return;
    retry = setInterval(() => {
      seeding ??= seed()
        .then(() => clearInterval(retry))
        // The sessions sweep logs the outage itself; anything else is worth an error each time.
        .catch((error) => {
          if (!isDatabaseUnavailable(error)) app.log.error({ err: error }, 'catalogue seed failed');
        })
        .finally(() => {
          seeding = null;
        });
    }, sweepIntervalMs);
    retry.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(retry);
    await seeding;
    catalogue.close();
  });
}

export default fp(cataloguePlugin, { name: 'yumecast-catalogue', fastify: '5.x', dependencies: ['yumecast-db'] });
