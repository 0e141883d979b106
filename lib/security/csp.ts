/**
 * The web's Content-Security-Policy (issue 10, docs/security.md), built from the configured
 * origins rather than hard-coded hosts: the api (REST and the signalling WebSocket), Firebase
 * (the Auth emulator locally, Google's endpoints in production), the callable functions, the
 * payment processor's pages (the sandbox's origin, or Stripe), Sentry, Firebase Analytics and
 * the Agora / TRTC SDKs when the api streams through them.
 *
 * Two policies, because a page can only carry a per-request nonce if it is rendered per request:
 * - `nonce`: pages rendered for this very request (getServerSideProps, the error page). Scripts
 *   need the nonce ('strict-dynamic' lets them load our chunks), `<style>` elements too
 *   (styled-components), style attributes stay allowed (React and next/image write them).
 * - `static`: prerendered pages (automatic static, getStaticProps/ISR), built before any request.
 *   Scripts only from our origin plus the SHA-256 of each inline bootstrap the build emits
 *   (./bootstrapHashes.ts, passed in) and of our boot gate (./bootGate.ts, added here, so no
 *   caller can leave it out); styles from our origin and inline.
 * Pure functions of their inputs; proxy.ts and pages/_document.tsx call them, with the sources of
 * this server (`siteCspSources`, worked out once per process). The prerendered routes'
 * (PRERENDERED_ROUTES) static policy is set by next.config.ts `headers()` instead, at build, so
 * those pages are served without running the proxy (issue 12: it halved their requests per
 * second); that needs a build with no inline bootstrap script to hash, i.e. webpack's.
 */
// Relative, not '@/lib/config': next.config.ts imports this file, and Next's config transpiler
// resolves the alias against the wrong folder (./bootGate imports nothing aliased either).
import { config } from '../config';
import { bootGateHash } from './bootGate';

/** The request header that carries the proxy's nonce to pages/_document.tsx. */
export const NONCE_HEADER = 'x-nonce';

/**
 * Routes served from prerendered HTML that is regenerated in the background (getStaticProps with
 * revalidate). They must never get a nonce: a background render shares the request of a response
 * that serves the previous HTML. lib/security/csp.test.ts checks this list against pages/.
 */
export const PRERENDERED_ROUTES = ['/', '/title/[id]', '/magazine/[slug]'] as const;

const PRERENDERED_PATTERNS = PRERENDERED_ROUTES.map((route) => new RegExp(`^${route.replace(/\[[^\]]+\]/g, '[^/]+')}/?$`));

/** True for a path whose page is prerendered and revalidated (no nonce for it). */
export function isPrerenderedPath(pathname: string): boolean {
  return PRERENDERED_PATTERNS.some((re) => re.test(pathname));
}

/** The prerendered routes as next.config `headers()` sources ('/title/[id]' → '/title/:id'). */
export function prerenderedHeaderSources(): string[] {
  return PRERENDERED_ROUTES.map((route) => route.replace(/\[([^\]]+)\]/g, ':$1'));
}

/**
 * The environment variables the policy reads at run time besides NEXT_PUBLIC_* (see cspSources).
 * The prerendered pages' policy is written into the build (next.config.ts), so the stack's build
 * fingerprint includes these: a change rebuilds (scripts/stack/build.ts).
 */
export const CSP_RUNTIME_ENV = ['PAYMENTS_PROCESSOR', 'PAYMENTS_SANDBOX_PUBLIC_URL', 'PAYMENTS_SANDBOX_URL', 'PAYMENTS_SANDBOX_PORT', 'STREAMING_PROVIDER', 'AGORA_APP_ID', 'TRTC_SDK_APP_ID', 'CSP_REPORT_URI'] as const;

/** One of CSP_RUNTIME_ENV's names. */
export type CspRuntimeEnvName = (typeof CSP_RUNTIME_ENV)[number];

/**
 * How the policy reads the environment: a setting by one of CSP_RUNTIME_ENV's names (trimmed,
 * blank = unset). sourcesFrom sees the environment only through this, so reading a name missing
 * from the list is a type error and the build's fingerprint cannot miss one.
 */
type EnvReader = (name: CspRuntimeEnvName) => string | undefined;

/** 128 random bits, base64: a fresh nonce for one response. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export interface CspSources {
  /** Scripts from other origins (the static policy's list; with a nonce, 'strict-dynamic' covers what our scripts load). */
  script: string[];
  connect: string[];
  frame: string[];
  img: string[];
  /** Where browsers report violations (CSP_REPORT_URI, else Sentry's security endpoint when a DSN is set). */
  reportUri: string | null;
  /** The site is served over https: `upgrade-insecure-requests`. */
  https: boolean;
}

type Env = Record<string, string | undefined>;

/** The functions' settings the browser code was built with (written out so Next inlines them). */
export interface BuiltFunctionsConfig {
  emulatorHost: string | undefined;
  region: string | undefined;
}
const BUILT_FUNCTIONS: BuiltFunctionsConfig = {
  emulatorHost: process.env.NEXT_PUBLIC_FUNCTIONS_EMULATOR_HOST,
  region: process.env.NEXT_PUBLIC_FUNCTIONS_REGION,
};

const value = (v: string | undefined) => (v && v.trim() ? v.trim() : undefined);

/** The origin of a URL, or null when it is not an http(s)/ws(s) URL. */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return /^(https?|wss?):$/.test(u.protocol) ? u.origin : null;
  } catch {
    return null;
  }
}

/** An http(s) origin and its WebSocket twin (the api's signalling endpoint is on the same host). */
function withWebSocket(origin: string | null): string[] {
  if (!origin) return [];
  return [origin, origin.replace(/^http/, 'ws')];
}

/** Sentry: its ingest origin (events) and its security endpoint (CSP reports), from the DSN. */
export function sentryEndpoints(dsn: string | undefined): { origin: string; reportUri: string } | null {
  if (!dsn) return null;
  try {
    const u = new URL(dsn);
    const project = u.pathname.split('/').filter(Boolean).pop();
    if (!/^https?:$/.test(u.protocol) || !u.username || !project) return null;
    return { origin: u.origin, reportUri: `${u.origin}/api/${project}/security/?sentry_key=${u.username}` };
  } catch {
    return null;
  }
}

/** Agora Web SDK and RTM (docs.agora.io "Firewall requirements": HTTPS and WSS to these). */
const AGORA = ['*.agora.io', '*.sd-rtn.com', '*.rtnsvc.com', '*.rtesvc.com'];
/** TRTC Web SDK (cloud.tencent.com "firewall": signalling, scheduling and logs over 443). */
const TRTC = ['yun.tim.qq.com', '*.rtc.qcloud.com', '*.rtc.qq.com', '*.cloud-rtc.com', '*.cloud-rtc.net', '*.my-imcloud.com', '*.rtc-web.com', '*.rtc-web.io', '*.rtc.tencentcloud.com'];
const httpsAndWss = (hosts: string[]) => hosts.flatMap((h) => [`https://${h}`, `wss://${h}`]);

/**
 * The origins the product really talks to. NEXT_PUBLIC_* values come through lib/config and
 * BUILT_FUNCTIONS (inlined at build, like the browser code that uses them); the rest is the web
 * server's environment at run time: PAYMENTS_PROCESSOR and PAYMENTS_SANDBOX_PUBLIC_URL / PAYMENTS_SANDBOX_URL (the card
 * form's frame), STREAMING_PROVIDER / AGORA_APP_ID / TRTC_SDK_APP_ID (which SDK may connect),
 * CSP_REPORT_URI.
 */
export function cspSources(env: Env = process.env, c: typeof config = config, fn: BuiltFunctionsConfig = BUILT_FUNCTIONS): CspSources {
  return sourcesFrom((name) => value(env[name]), c, fn);
}

/** cspSources' work, with the environment behind its typed reader (csp.test.ts: it reads every name). */
function sourcesFrom(read: EnvReader, c: typeof config, fn: BuiltFunctionsConfig): CspSources {
  const script: string[] = [];
  const connect: string[] = [...withWebSocket(originOf(c.apiUrl))];
  const frame: string[] = [];
  const img: string[] = [];

  // Firebase Auth: the emulator locally; Google's endpoints, and the auth domain's frame (and the
  // gapi script it loads) for the redirect sign-in, with a real project.
  const emulator = c.firebase.authEmulatorHost;
  if (emulator) connect.push(`http://${emulator}`);
  else {
    connect.push('https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', 'https://www.googleapis.com');
    frame.push(`https://${c.firebase.authDomain}`);
    script.push('https://apis.google.com');
  }

  // Callable functions (lib/firebase/functions.ts): the emulator, or the region's host.
  // Same rule as functionsEmulatorHost(): unset → the emulator's default port in local mode.
  const functionsEmulator = (fn.emulatorHost ?? (emulator ? '127.0.0.1:5001' : '')).trim();
  if (functionsEmulator) connect.push(`http://${functionsEmulator}`);
  else connect.push(`https://${value(fn.region) ?? 'asia-northeast1'}-${c.firebase.projectId}.cloudfunctions.net`);

  // The payment processor's pages (docs/payments-processor.md "What the web page mounts").
  const processor = read('PAYMENTS_PROCESSOR') ?? 'sandbox';
  if (processor === 'stripe') {
    // Stripe's own list (docs.stripe.com/security/guide, "Content Security Policy").
    script.push('https://js.stripe.com', 'https://*.js.stripe.com');
    frame.push('https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com');
    connect.push('https://api.stripe.com');
  } else {
    const sandbox = originOf(read('PAYMENTS_SANDBOX_PUBLIC_URL') ?? read('PAYMENTS_SANDBOX_URL')) ?? `http://127.0.0.1:${read('PAYMENTS_SANDBOX_PORT') ?? '8300'}`;
    frame.push(sandbox);
  }

  // Errors (lib/sentry) and analytics (lib/analytics: Firebase Analytics loads gtag).
  const sentry = sentryEndpoints(c.sentryDsn);
  if (sentry) connect.push(sentry.origin);
  if (c.firebase.measurementId) {
    script.push('https://www.googletagmanager.com');
    connect.push('https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com', 'https://firebase.googleapis.com', 'https://firebaseinstallations.googleapis.com');
    img.push('https://*.google-analytics.com', 'https://www.googletagmanager.com');
  }

  // Streaming providers other than our own webrtc (whose signalling is the api's WebSocket).
  const provider = read('STREAMING_PROVIDER');
  if (provider === 'agora' || read('AGORA_APP_ID')) connect.push(...httpsAndWss(AGORA));
  if (provider === 'trtc' || read('TRTC_SDK_APP_ID')) connect.push(...httpsAndWss(TRTC));

  const reportUri = read('CSP_REPORT_URI') ?? sentry?.reportUri ?? null;
  const https = c.siteUrl.startsWith('https://');
  const unique = (list: string[]) => [...new Set(list)];
  return { script: unique(script), connect: unique(connect), frame: unique(frame), img: unique(img), reportUri, https };
}

let site: CspSources | null = null;

/** `cspSources()` of this server's environment: fixed for the life of the process, so worked out once. */
export function siteCspSources(): CspSources {
  return (site ??= cspSources());
}

export interface PolicyOptions {
  sources: CspSources;
  /** The response's nonce: the page was rendered for this request. Absent: a prerendered page. */
  nonce?: string;
  /** 'sha256-…' sources of the build's inline scripts (static policy; the boot gate's is added by contentSecurityPolicy). */
  scriptHashes?: readonly string[];
  /** next dev: React needs eval for its debugging aids, and the dev overlay injects styles. */
  dev?: boolean;
}

/**
 * The Content-Security-Policy header value. The static policy always allows the boot gate by its
 * hash (a prerendered page that preloads its picture carries the gate, pages/_document.tsx); the
 * nonce policy does not need it: a page rendered for the request gives the gate its nonce.
 */
export function contentSecurityPolicy({ sources, nonce, scriptHashes = [], dev = false }: PolicyOptions): string {
  const eval_ = dev ? ["'unsafe-eval'"] : [];
  const script = nonce
    ? [`'nonce-${nonce}'`, "'strict-dynamic'", "'self'", ...sources.script, ...eval_]
    : ["'self'", ...[...new Set([...scriptHashes, bootGateHash()])].map((h) => `'${h}'`), ...sources.script, ...eval_];
  const styleNonce = nonce && !dev;
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', script],
    ['style-src', styleNonce ? ["'self'", `'nonce-${nonce}'`] : ["'self'", "'unsafe-inline'"]],
    ...(styleNonce ? [['style-src-attr', ["'unsafe-inline'"]] as [string, string[]]] : []),
    ['img-src', ["'self'", 'data:', 'blob:', ...sources.img]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...sources.connect]],
    ['media-src', ["'self'", 'blob:']],
    ['frame-src', sources.frame.length ? sources.frame : ["'none'"]],
    ['worker-src', ["'self'", 'blob:']],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  const parts = directives.map(([name, list]) => `${name} ${list.join(' ')}`);
  if (sources.https) parts.push('upgrade-insecure-requests');
  if (sources.reportUri) parts.push(`report-uri ${sources.reportUri}`);
  return parts.join('; ');
}
