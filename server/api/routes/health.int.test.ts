/**
 * The api's probes: /health and /readyz answer ok when PostgreSQL answers and the migrations are
 * applied, 503 service_unavailable (envelope) when the database is down; /livez answers 200
 * whatever the database does.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { listenForTest, type TestClient } from '../testing/http-client';
import { createTestSchema, testConfig, type TestSchema } from '../testing/test-app';

jest.setTimeout(30_000);

describe('GET /health, /readyz, /livez', () => {
  let schema: TestSchema;
  let app: FastifyInstance;
  let client: TestClient;

  beforeAll(async () => {
    schema = await createTestSchema('health');
    app = await buildApp({ config: testConfig(schema.name), logger: false });
    client = await listenForTest(app);
  });

  afterAll(async () => {
    await app?.close();
    await schema?.drop();
  });

  it('answers ok when the database answers', async () => {
    const response = await client.request({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('is ready and alive when the database answers and every migration is applied', async () => {
    const ready = await client.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', db: 'ok', migrations: 'ok' });
    const live = await client.request({ method: 'GET', url: '/livez?cache=1' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('is not ready while a migration file is not applied', async () => {
    await schema.pool.query('DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)');
    const notMigrated = await buildApp({ config: testConfig(schema.name, { runMigrations: false }), logger: false });
    try {
      const response = await (await listenForTest(notMigrated)).request({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('service_unavailable');
    } finally {
      await notMigrated.close();
    }
  });

  it('answers 503 service_unavailable in the error format when the database is down', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const down = await buildApp({
      config: testConfig(schema.name, { databaseUrl: 'postgres://postgres:postgres@127.0.0.1:1/none', runMigrations: false }),
      logger: false,
    });
    try {
      const downClient = await listenForTest(down);
      const response = await downClient.request({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body).toEqual({ status: 'error', error: { code: 'service_unavailable', message: expect.any(String) } });
      expect(body.error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
      const ready = await downClient.request({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'error', error: { code: 'service_unavailable', message: expect.any(String) } });
      // alive all the same: a database outage must not get the api restarted
      expect((await downClient.request({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    } finally {
      await down.close();
    }
  });
});
