/**
 * Shared parts of the session feature: builds the session service, the signalling relay (and
 * @fastify/websocket) and the screenshot storage, and runs the background sweeper (idle rules,
 * lost hosts, queue) while the app is up. The titles sessions start are the catalogue's
 * (`games`, seeded by plugins/catalogue.ts).
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AddressInfo } from 'node:net';
import { isDatabaseUnavailable } from '../db/pool';
import { HostClient } from '../services/hostClient';
import { SessionService } from '../services/sessions/service';
import { ScreenshotService } from '../services/screenshots';
import type { SessionConfig } from '../services/sessionConfig';
import { PgSignalBus } from '../services/signalBus';
import { SignalRelay } from '../services/signalRelay';
import { resolveSignalSecret, SignalTokens } from '../services/tokens';
import { LocalFileStorage, type ObjectStorage } from '../storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Game sessions, the scheduler and the host registry (services/sessions/service.ts). */
    sessions: SessionService;
    /** The signalling relay behind GET /v1/signal. */
    signalRelay: SignalRelay;
    /** Where screenshots are kept (storage/). */
    objectStorage: ObjectStorage;
    /** Screenshot rows + files. */
    screenshots: ScreenshotService;
    /** Signs and checks signal tokens. */
    signalTokens: SignalTokens;
    /** ws(s)://<public host>/v1/signal */
    signalUrl(): string;
    /** Runs one sweep now (tests; the background sweeper calls the same). */
    sweepNow(): Promise<void>;
  }
}

export interface SessionsPluginOptions {
  config: SessionConfig;
  /** API_HOST / API_PORT, for the public URL when API_PUBLIC_URL is not set. */
  listenHost: string;
  listenPort: number;
  /** Another ObjectStorage implementation (default: LocalFileStorage under config.screenshotDir). */
  storage?: ObjectStorage;
  /** The connection of the signal bus between api replicas (LISTEN/NOTIFY); null: this is the only replica. */
  signalBus: { databaseUrl: string; schema?: string } | null;
}

async function sessionsPlugin(app: FastifyInstance, options: SessionsPluginOptions): Promise<void> {
  const { config } = options;
  const signalTokens = new SignalTokens(await resolveSignalSecret(config));
  const publicBase = (): string => {
    if (config.apiPublicUrl) return config.apiPublicUrl;
    const address = app.server.address() as AddressInfo | null;
    const port = address && typeof address === 'object' ? address.port : options.listenPort;
    const host = ['0.0.0.0', '::', ''].includes(options.listenHost) ? '127.0.0.1' : options.listenHost;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  };
  const signalUrl = (): string => `${publicBase().replace(/^http/, 'ws')}/v1/signal`;

  const sessions = new SessionService({
    db: app.db,
    config,
    log: app.log.child({ component: 'sessions' }),
    hostClient: new HostClient(config.hostSharedSecret, config.hostRequestTimeoutMs),
    signalTokens,
    signalUrl,
  });
  const busLog = app.log.child({ component: 'signal-bus' });
  const bus = options.signalBus ? new PgSignalBus({ ...options.signalBus, log: busLog }) : null;
  await bus?.start();
  const relay = new SignalRelay(sessions, signalTokens, app.log.child({ component: 'signal' }), bus);

  app.decorate('sessions', sessions);
  app.decorate('signalRelay', relay);
  app.decorate('signalTokens', signalTokens);
  const storage = options.storage ?? new LocalFileStorage(config.screenshotDir);
  app.decorate('objectStorage', storage);
  app.decorate('screenshots', new ScreenshotService(app.db, storage, app.log.child({ component: 'screenshots' })));
  app.decorate('signalUrl', signalUrl);

  let sweeping: Promise<void> | null = null;
  let lastOutageLog = 0;
  const sweepNow = (): Promise<void> => {
    sweeping ??= (async () => {
      try {
        await sessions.sweep();
        await relay.checkEnded();
      } catch (error) {
        // A database outage would log every sweep: once a minute is enough.
        if (!isDatabaseUnavailable(error)) app.log.error({ err: error }, 'session sweep failed');
        else if (Date.now() - lastOutageLog > 60_000) {
          lastOutageLog = Date.now();
          app.log.warn({ err: error }, 'session sweep skipped: database unavailable');
        }
      } finally {
        sweeping = null;
      }
    })();
    return sweeping;
  };
  app.decorate('sweepNow', sweepNow);

  // Before @fastify/websocket's own preClose (which closes every socket): sockets closing
  // because the api stops must not count as players leaving.
  app.addHook('preClose', (done) => {
    relay.shutdown();
    done();
  });
  await app.register(websocket, { options: { maxPayload: 256 * 1024 } });

  let timer: NodeJS.Timeout | undefined;
  if (config.sweeper) {
    app.addHook('onReady', async () => {
      timer = setInterval(() => void sweepNow(), config.sweepIntervalMs);
      timer.unref();
    });
  }
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await sweeping;
    await sessions.stop();
    await bus?.close();
  });
}

export default fp(sessionsPlugin, { name: 'yumecast-sessions', fastify: '5.x', dependencies: ['yumecast-db'] });
