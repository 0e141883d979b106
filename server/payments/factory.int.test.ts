/**
 * createProcessor(env) and the configuration it reads: the sandbox by default (with its local
 * address and secrets), Stripe when PAYMENTS_PROCESSOR=stripe and every STRIPE_* value is there,
 * an explicit choice and non-default secrets in production. Plus the shared Stripe-scheme
 * signature helpers both processors rely on. No services needed (it sits with the integration
 * tests because the unit project runs in jsdom).
 */
import { createProcessor, sandboxClientOptions } from './index';
import { loadSandboxConfig } from './sandbox/config';
import { signPayload, verifySignature } from './signature';
import { parsePriceIds } from './stripe/config';

const STRIPE_ENV = {
  PAYMENTS_PROCESSOR: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_123',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
  STRIPE_WEBHOOK_SECRET: 'whsec_123',
  STRIPE_PRICE_IDS: 'standard=price_123, premium=price_456',
};

describe('createProcessor', () => {
  it('is the sandbox by default, at 127.0.0.1:PAYMENTS_SANDBOX_PORT', () => {
    expect(createProcessor({}).name).toBe('sandbox');
    expect(sandboxClientOptions({ PAYMENTS_SANDBOX_PORT: '8400' })).toMatchObject({ baseUrl: 'http://127.0.0.1:8400', secretKey: 'sk_test_sandbox_local' });
    expect(sandboxClientOptions({ PAYMENTS_SANDBOX_URL: 'http://127.0.0.1:9999' }).baseUrl).toBe('http://127.0.0.1:9999');
  });

  it('is Stripe when PAYMENTS_PROCESSOR=stripe and the STRIPE_* values are set', () => {
    expect(createProcessor(STRIPE_ENV).name).toBe('stripe');
    expect(() => createProcessor({ ...STRIPE_ENV, STRIPE_WEBHOOK_SECRET: '' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => createProcessor({ ...STRIPE_ENV, STRIPE_PUBLISHABLE_KEY: 'pk_live_123' })).toThrow(/both be live or both be test/);
    expect(() => createProcessor({ ...STRIPE_ENV, STRIPE_PRICE_IDS: 'standard' })).toThrow(/STRIPE_PRICE_IDS/);
    expect(parsePriceIds('standard=price_123, premium=price_456')).toEqual({ standard: 'price_123', premium: 'price_456' });
  });

  it('refuses unknown processors and, in production, an implicit choice or the local secrets', () => {
    expect(() => createProcessor({ PAYMENTS_PROCESSOR: 'paypal' })).toThrow(/sandbox" or "stripe/);
    expect(() => createProcessor({ NODE_ENV: 'production' })).toThrow(/PAYMENTS_PROCESSOR/);
    expect(() => createProcessor({ NODE_ENV: 'production', PAYMENTS_PROCESSOR: 'sandbox' })).toThrow(/PAYMENTS_SANDBOX_SECRET_KEY/);
    expect(createProcessor({ ...STRIPE_ENV, NODE_ENV: 'production' }).name).toBe('stripe');
  });
});

describe('sandbox configuration', () => {
  it('listens on loopback only, port 8300 by default, in schema payments_sandbox', () => {
    const config = loadSandboxConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8300, schema: 'payments_sandbox', retryScheduleSeconds: [86_400, 3 * 86_400, 5 * 86_400] });
    expect(config.allowedOrigins).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000']);
    expect(loadSandboxConfig({ WEB_ORIGIN: 'http://127.0.0.1:3100/' }).allowedOrigins).toEqual(['http://127.0.0.1:3100']);
    expect(() => loadSandboxConfig({ PAYMENTS_SANDBOX_HOST: '0.0.0.0' })).toThrow(/loopback/);
    expect(() => loadSandboxConfig({ PAYMENTS_SANDBOX_SCHEMA: 'bad-name' })).toThrow(/identifier/);
    expect(() => loadSandboxConfig({ NODE_ENV: 'production' })).toThrow(/local use/);
  });
});

describe('Stripe-scheme signatures', () => {
  const body = '{"id":"evt_1","object":"event"}';

  it('verifies what it signs, within the tolerance, and nothing else', () => {
    const now = 1_800_000_000;
    const header = signPayload('whsec_a', body, now);
    expect(verifySignature(body, header, 'whsec_a', { now })).toEqual({ ok: true, timestamp: now });
    expect(verifySignature(Buffer.from(body), header, 'whsec_a', { now: now + 299 })).toMatchObject({ ok: true });
    expect(verifySignature(body, header, 'whsec_a', { now: now + 301 })).toMatchObject({ ok: false, error: 'timestamp_out_of_tolerance' });
    expect(verifySignature(body, header, 'whsec_b', { now })).toMatchObject({ ok: false, error: 'bad_signature' });
    expect(verifySignature(`${body} `, header, 'whsec_a', { now })).toMatchObject({ ok: false, error: 'bad_signature' });
    expect(verifySignature(body, [header, header], 'whsec_a', { now })).toMatchObject({ ok: false, error: 'malformed_signature' });
    expect(verifySignature(body, `t=${now}`, 'whsec_a', { now })).toMatchObject({ ok: false, error: 'malformed_signature' });
    expect(verifySignature(body, '', 'whsec_a', { now })).toMatchObject({ ok: false, error: 'missing_signature' });
  });
});
