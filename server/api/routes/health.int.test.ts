import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { listenForTest, type TestClient } from '../testing/http-client';
import { createTestSchema, testConfig, type TestSchema } from '../testing/test-app';

jest.setTimeout(30_000);

describe('GET /health', () => {
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

  it('answers 503 service_unavailable in the error format when the database is down', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const down = await buildApp({
      config: testConfig(schema.name, { databaseUrl: 'postgres://postgres:postgres@127.0.0.1:1/none', runMigrations: false }),
      logger: false,
    });
    try {
      const response = await (await listenForTest(down)).request({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body).toEqual({ status: 'error', error: { code: 'service_unavailable', message: expect.any(String) } });
      expect(body.error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
    } finally {
      await down.close();
    }
  });
});
