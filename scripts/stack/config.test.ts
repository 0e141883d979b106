/**
 * The stack's origins for CORS: the web's two loopback spellings, plus WEB_EXTRA_ORIGINS (a
 * second web served beside the stack's for a side-by-side bench), which must be loopback.
 */
import { stackConfig, stackEnv, webOrigins } from './config';

/** Exactly these variables, nothing of the test process's own environment. */
const only = (vars: Record<string, string> = {}) => vars as NodeJS.ProcessEnv;
const c = stackConfig('dev', only());

it('allows the web on both loopback spellings and nothing else by default', () => {
  expect(webOrigins(c, only()).split(',')).toEqual([`http://localhost:${c.webPort}`, `http://127.0.0.1:${c.webPort}`]);
});

it('adds WEB_EXTRA_ORIGINS to CORS', () => {
  const env = stackEnv(c, only({ WEB_EXTRA_ORIGINS: 'http://127.0.0.1:3300, http://localhost:3301' }));
  expect(env.WEB_ORIGIN!.split(',')).toEqual([`http://localhost:${c.webPort}`, `http://127.0.0.1:${c.webPort}`, 'http://127.0.0.1:3300', 'http://localhost:3301']);
});

it('refuses an extra origin off loopback', () => {
  expect(() => webOrigins(c, only({ WEB_EXTRA_ORIGINS: 'https://example.com' }))).toThrow(/not a loopback origin/);
  expect(() => webOrigins(c, only({ WEB_EXTRA_ORIGINS: 'http://127.0.0.1:3300/path' }))).toThrow(/not a loopback origin/);
});
