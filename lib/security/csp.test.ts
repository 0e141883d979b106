/**
 * @jest-environment node
 *
 * The web's Content-Security-Policy (lib/security/csp.ts): built from the configured origins,
 * strict about scripts (a nonce, or the build's and the boot gate's hashes, never
 * 'unsafe-inline'), reading exactly the environment CSP_RUNTIME_ENV names (the build's
 * fingerprint), and the list of prerendered routes that never get a nonce matches the pages that
 * use getStaticProps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { config } from '@/lib/config';
import { config as proxyConfig } from '../../proxy';
import { bootGateHash } from './bootGate';
import { contentSecurityPolicy, CSP_RUNTIME_ENV, cspSources, isPrerenderedPath, newNonce, originOf, prerenderedHeaderSources, PRERENDERED_ROUTES, sentryEndpoints } from './csp';

type Config = typeof config;

/** The local test stack's settings (scripts/stack/config.ts, slot 1). */
const local: Config = {
  ...config,
  siteUrl: 'http://localhost:4100',
  apiUrl: 'http://127.0.0.1:9180',
  sentryDsn: '',
  firebase: { ...config.firebase, authEmulatorHost: '127.0.0.1:10199', measurementId: '' },
};
const localEnv = { PAYMENTS_SANDBOX_URL: 'http://127.0.0.1:9380' };
const localFunctions = { emulatorHost: '127.0.0.1:6101', region: 'asia-northeast1' };

const production: Config = {
  ...config,
  siteUrl: 'https://yumecast.example',
  apiUrl: 'https://api.yumecast.example',
  sentryDsn: 'https://abc123@o42.ingest.sentry.io/777',
  firebase: { ...config.firebase, authEmulatorHost: '', authDomain: 'yumecast-prod.firebaseapp.com', projectId: 'yumecast-prod', measurementId: 'G-TEST' },
};
const productionEnv = { PAYMENTS_PROCESSOR: 'stripe', STREAMING_PROVIDER: 'agora', TRTC_SDK_APP_ID: '1400000000' };
const productionFunctions = { emulatorHost: '', region: 'asia-northeast1' };

function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
}

describe('cspSources', () => {
  it('names the local stack: the api (REST and its signalling WebSocket), the emulators and the payments sandbox', () => {
    const s = cspSources(localEnv, local, localFunctions);
    expect(s.connect).toEqual(expect.arrayContaining(['http://127.0.0.1:9180', 'ws://127.0.0.1:9180', 'http://127.0.0.1:10199', 'http://127.0.0.1:6101']));
    expect(s.frame).toEqual(['http://127.0.0.1:9380']);
    expect(s.script).toEqual([]);
    expect(s.connect.join(' ')).not.toMatch(/googleapis|stripe|agora|sentry/);
    expect(s.https).toBe(false);
    expect(s.reportUri).toBeNull();
  });

  it('prefers the sandbox’s public URL, and falls back to its local default port', () => {
    expect(cspSources({ PAYMENTS_SANDBOX_PUBLIC_URL: 'https://pay.example/x', PAYMENTS_SANDBOX_URL: 'http://127.0.0.1:1' }, local, localFunctions).frame).toEqual(['https://pay.example']);
    expect(cspSources({}, local, localFunctions).frame).toEqual(['http://127.0.0.1:8300']);
  });

  it('names production: Google’s auth endpoints and frame, the region’s functions, Stripe, Sentry, Analytics, Agora and TRTC', () => {
    const s = cspSources(productionEnv, production, productionFunctions);
    expect(s.connect).toEqual(
      expect.arrayContaining([
        'https://api.yumecast.example',
        'wss://api.yumecast.example',
        'https://identitytoolkit.googleapis.com',
        'https://securetoken.googleapis.com',
        'https://asia-northeast1-yumecast-prod.cloudfunctions.net',
        'https://api.stripe.com',
        'https://o42.ingest.sentry.io',
        'https://*.google-analytics.com',
        'wss://*.agora.io',
        'https://*.sd-rtn.com',
        'wss://*.rtc.qq.com',
      ]),
    );
    expect(s.frame).toEqual(expect.arrayContaining(['https://yumecast-prod.firebaseapp.com', 'https://js.stripe.com', 'https://hooks.stripe.com']));
    expect(s.frame.join(' ')).not.toContain('127.0.0.1');
    expect(s.script).toEqual(expect.arrayContaining(['https://apis.google.com', 'https://js.stripe.com', 'https://www.googletagmanager.com']));
    expect(s.reportUri).toBe('https://o42.ingest.sentry.io/api/777/security/?sentry_key=abc123');
    expect(s.https).toBe(true);
  });

  it('adds no streaming SDK origins for our own webrtc, and CSP_REPORT_URI wins over Sentry', () => {
    const s = cspSources({ STREAMING_PROVIDER: 'webrtc', CSP_REPORT_URI: 'https://csp.example/r' }, production, productionFunctions);
    expect(s.connect.join(' ')).not.toMatch(/agora|qq\.com/);
    expect(s.reportUri).toBe('https://csp.example/r');
  });

  it('reads origins only from http(s) and ws(s) URLs, and Sentry endpoints only from a full DSN', () => {
    expect(originOf('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080');
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('not a url')).toBeNull();
    expect(sentryEndpoints('https://o1.ingest.sentry.io/5')).toBeNull();
    expect(sentryEndpoints('')).toBeNull();
  });
});

describe('the environment cspSources reads (CSP_RUNTIME_ENV, scripts/stack/build.ts fingerprints it)', () => {
  /** The names read from process.env while `fn` runs (the default env of cspSources is process.env). */
  function processEnvReads(env: Record<string, string>, fn: () => void): string[] {
    const read = new Set<string>();
    const saved = process.env;
    process.env = new Proxy(env, {
      get: (target, key) => (typeof key === 'string' && read.add(key), Reflect.get(target, key)),
      has: (target, key) => (typeof key === 'string' && read.add(key), Reflect.has(target, key)),
    }) as NodeJS.ProcessEnv;
    try {
      fn();
    } finally {
      process.env = saved;
    }
    return [...read].sort();
  }

  it('reads every name of CSP_RUNTIME_ENV and no other, whatever the settings', () => {
    const list: string[] = [...CSP_RUNTIME_ENV].sort();
    const seen = new Set<string>();
    const envs: Record<string, string>[] = [{}, localEnv, productionEnv, { STREAMING_PROVIDER: 'trtc', PAYMENTS_SANDBOX_PORT: '1' }];
    for (const env of envs) {
      const reads = processEnvReads(env, () => cspSources(undefined, production, productionFunctions));
      expect(reads.filter((n) => !list.includes(n))).toEqual([]);
      reads.forEach((n) => seen.add(n));
    }
    // a name no longer read would only rebuild for nothing, but the list should say what is read
    expect([...seen].sort()).toEqual(list);
  });

  it('reads process.env itself only for NEXT_PUBLIC_* (built into the pages, fingerprinted by prefix)', () => {
    // cspSources' own reads go through its typed reader (a name outside CSP_RUNTIME_ENV does not compile)
    const source = fs.readFileSync(path.join(__dirname, 'csp.ts'), 'utf8');
    const direct = [...source.matchAll(/process\.env(?:\.([A-Za-z_$][\w$]*)|\[)/g)].map((m) => m[1] ?? '[…]');
    expect(direct.filter((n) => !n.startsWith('NEXT_PUBLIC_'))).toEqual([]);
  });
});

describe('contentSecurityPolicy', () => {
  const sources = cspSources(localEnv, local, localFunctions);

  it('with a nonce: scripts and <style> need it, nothing inline runs without it, style attributes stay allowed', () => {
    const d = directives(contentSecurityPolicy({ sources, nonce: 'AAAAAAAAAAAAAAAAAAAAAA==' }));
    expect(d['script-src']).toEqual(["'nonce-AAAAAAAAAAAAAAAAAAAAAA=='", "'strict-dynamic'", "'self'"]);
    expect(d['style-src']).toEqual(["'self'", "'nonce-AAAAAAAAAAAAAAAAAAAAAA=='"]);
    expect(d['style-src-attr']).toEqual(["'unsafe-inline'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['base-uri']).toEqual(["'none'"]);
    expect(d['frame-src']).toEqual(['http://127.0.0.1:9380']);
    expect(d['connect-src']).toEqual(expect.arrayContaining(["'self'", 'ws://127.0.0.1:9180']));
    expect(d['upgrade-insecure-requests']).toBeUndefined();
  });

  it('without a nonce (a prerendered page): our scripts, the build’s hashes and the boot gate’s only; inline styles allowed', () => {
    const d = directives(contentSecurityPolicy({ sources, scriptHashes: ['sha256-abc='] }));
    expect(d['script-src']).toEqual(["'self'", "'sha256-abc='", `'${bootGateHash()}'`]);
    expect(d['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(d['style-src-attr']).toBeUndefined();
    expect(d['frame-ancestors']).toEqual(["'none'"]);
  });

  it('without a nonce allows the boot gate by its hash whatever the caller passes; with one the gate carries the nonce', () => {
    const gate = `'${bootGateHash()}'`;
    // The static policy of a caller that names no hash (next.config.ts), of one that names the
    // build's (proxy.ts), in next dev, and of one that names the gate itself (no duplicate).
    expect(directives(contentSecurityPolicy({ sources }))['script-src']).toEqual(["'self'", gate]);
    expect(directives(contentSecurityPolicy({ sources, scriptHashes: ['sha256-abc='] }))['script-src']).toContain(gate);
    expect(directives(contentSecurityPolicy({ sources, dev: true }))['script-src']).toContain(gate);
    expect(directives(contentSecurityPolicy({ sources, scriptHashes: [bootGateHash()] }))['script-src']).toEqual(["'self'", gate]);
    // A page rendered for the request puts the nonce on the gate (pages/_document.tsx): no hash needed.
    expect(directives(contentSecurityPolicy({ sources, nonce: newNonce() }))['script-src'].filter((s) => s.startsWith("'sha256-"))).toEqual([]);
  });

  it('never lets an inline script run without a nonce or hash, in either policy', () => {
    for (const policy of [contentSecurityPolicy({ sources, nonce: newNonce() }), contentSecurityPolicy({ sources })]) {
      expect(directives(policy)['script-src']).not.toContain("'unsafe-inline'");
      expect(directives(policy)['script-src']).not.toContain("'unsafe-eval'");
    }
  });

  it('in next dev allows eval (React’s debugging aids) and inline styles (the dev overlay)', () => {
    const d = directives(contentSecurityPolicy({ sources, nonce: 'AAAAAAAAAAAAAAAAAAAAAA==', dev: true }));
    expect(d['script-src']).toContain("'unsafe-eval'");
    expect(d['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('in production upgrades insecure requests and reports violations', () => {
    const d = directives(contentSecurityPolicy({ sources: cspSources(productionEnv, production, productionFunctions), nonce: newNonce() }));
    expect(d['upgrade-insecure-requests']).toEqual([]);
    expect(d['report-uri']).toEqual(['https://o42.ingest.sentry.io/api/777/security/?sentry_key=abc123']);
    expect(d['script-src']).toEqual(expect.arrayContaining(['https://js.stripe.com']));
  });
});

describe('nonces and prerendered routes', () => {
  it('makes a new 128-bit base64 nonce each time', () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(new Set(Array.from({ length: 50 }, newNonce)).size).toBe(50);
  });

  it('knows the prerendered, revalidated pages by path', () => {
    expect(isPrerenderedPath('/title/hoshifuru-toshokan')).toBe(true);
    expect(isPrerenderedPath('/magazine/spring')).toBe(true);
    expect(isPrerenderedPath('/magazine')).toBe(false);
    expect(isPrerenderedPath('/play/hoshifuru-toshokan')).toBe(false);
    expect(isPrerenderedPath('/title/a/b')).toBe(false);
    expect(isPrerenderedPath('/')).toBe(true);
    expect(isPrerenderedPath('/search')).toBe(false);
  });

  it('lists exactly the pages that use getStaticProps (a new one must be added, or it would get a nonce)', () => {
    const root = path.resolve(__dirname, '..', '..', 'pages');
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && /export (const|async function|function) getStaticProps\b/.test(fs.readFileSync(file, 'utf8'))) {
          found.push(`/${path.relative(root, file).replace(/\.tsx?$/, '').replace(/(^|\/)index$/, '')}`);
        }
      }
    };
    walk(root);
    expect(found.sort()).toEqual([...PRERENDERED_ROUTES].sort());
  });

  it('keeps the proxy away from exactly the prerendered pages (next.config.ts gives them their policy)', () => {
    // The matcher as Next compiles it (path-to-regexp), against paths of every kind.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- Next's own compiled copy, as its matcher uses
    const { pathToRegexp } = require('next/dist/compiled/path-to-regexp') as { pathToRegexp: (p: string) => RegExp };
    const matches = (pathname: string) => proxyConfig.matcher.some((m) => pathToRegexp(m).test(pathname));
    for (const p of ['/', '/title/hoshifuru-toshokan', '/title/hoshifuru-toshokan/', '/magazine/spring']) {
      expect([p, matches(p)]).toEqual([p, false]);
      expect(isPrerenderedPath(p)).toBe(true);
    }
    for (const p of ['/magazine', '/search', '/brand', '/play/hoshifuru-toshokan', '/title/a/b', '/email/login', '/settings', '/privacy', '/no/such/page']) {
      expect([p, matches(p)]).toEqual([p, true]);
    }
    expect(prerenderedHeaderSources()).toEqual(['/', '/title/:id', '/magazine/:slug']);
  });
});
