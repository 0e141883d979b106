import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../db/pool';
import { MyListService } from '../services/catalogue/mylist';
import { CatalogueService } from '../services/catalogue/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Public catalogue and magazine reads (services/catalogue/service.ts). */
    catalogue: CatalogueService;
    /** Bookmarks and play history of verified users (services/catalogue/mylist.ts). */
    mylist: MyListService;
  }
}

/**
 * The catalogue's services. The seed itself runs at start in the sessions plugin (seedGames →
 * services/catalogue/seed.ts), registered before this one; the snapshot is loaded when the app
 * is ready and again after every seed. With PostgreSQL down at start, the first read loads it.
 */
async function cataloguePlugin(app: FastifyInstance): Promise<void> {
  const catalogue = new CatalogueService(app.db, app.log.child({ component: 'catalogue' }));
  app.decorate('catalogue', catalogue);
  app.decorate('mylist', new MyListService(app.db, catalogue));
  app.addHook('onReady', async () => {
    try {
      await catalogue.snapshot();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      app.log.warn({ err: error }, 'catalogue not loaded yet: database unavailable');
    }
  });
  app.addHook('onClose', async () => catalogue.close());
}

export default fp(cataloguePlugin, { name: 'yumecast-catalogue', fastify: '5.x', dependencies: ['yumecast-db', 'yumecast-sessions'] });
