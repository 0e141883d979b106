/**
 * Firebase ID tokens on the api (docs/api.md "Auth hook"): the firebase-admin Auth of this app,
 * the `authenticate` hook that routes opt into with `config: { auth: true }` (verifies the bearer
 * token at onRequest and puts the caller on `request.user`), and the handlers' accessors
 * `requireUser` and `requireVerifiedUser` (the typed 403 of "verified only" routes).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { AccountChecks, bearerToken, notVerified, verifyIdToken, type AuthUser } from '../auth/id-token';
import { ApiError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** firebase-admin Auth of this app (verify tokens, set custom claims, look users up). */
    firebaseAuth: Auth;
    /** Revocation and disabled accounts, looked up at most once per AUTH_REVOCATION_CHECK_MS per user. */
    accountChecks: AccountChecks;
    /**
     * Hook that verifies the bearer ID token and sets request.user, or answers a typed 401.
     * Either set `config: { auth: true }` on a route (preferred) or add it as a hook yourself.
     */
    authenticate: onRequestAsyncHookHandler;
  }
  interface FastifyRequest {
    /** The verified caller on routes with `config.auth`; null elsewhere. */
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Require a valid Firebase ID token (sets request.user). */
    auth?: boolean;
  }
}

export interface AuthPluginOptions {
  projectId: string;
  /** "host:port" of the Auth emulator, or undefined for the real Firebase Auth. */
  emulatorHost?: string;
  /** AUTH_REVOCATION_CHECK_MS: a user's revocation/disabled state is looked up at most this often (auth/id-token.ts). */
  revocationCheckMs: number;
}

async function authPlugin(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  // firebase-admin reads the emulator address from the environment only; keep it in step with
  // our config so a test app and the process agree on which Auth they talk to.
  if (options.emulatorHost) {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = options.emulatorHost;
    app.log.warn({ emulator: options.emulatorHost }, 'accepting Firebase Auth emulator tokens (unsigned); local use only');
  } else {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  }

  // A named app per server instance, so several test apps in one process do not share state.
  // Production credentials come from Application Default Credentials (checkRevoked needs them).
  const firebaseApp = initializeApp({ projectId: options.projectId }, `yumecast-api-${randomUUID()}`);
  const auth = getAuth(firebaseApp);
  app.decorate('firebaseAuth', auth);
  const accountChecks = new AccountChecks(options.revocationCheckMs);
  app.decorate('accountChecks', accountChecks);
  app.addHook('onClose', async () => {
    await deleteApp(firebaseApp);
  });

  app.decorateRequest('user', null);

  const authenticate: onRequestAsyncHookHandler = async function authenticate(request: FastifyRequest) {
    const token = bearerToken(request.headers.authorization);
    request.user = await verifyIdToken(auth, token, accountChecks);
  };
  app.decorate('authenticate', authenticate);

  // Routes opt in with `config: { auth: true }`. It runs at onRequest, before the body is read
  // and validated: an anonymous caller gets 401 and learns nothing about the route's schema.
  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) return;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    // The automatic HEAD twin of a GET route passes through here with the GET's hooks.
    if (existing.includes(authenticate)) return;
    route.onRequest = [authenticate, ...existing];
  });
}

/** For handlers of authenticated routes: the user, typed as present. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new ApiError('unauthorized');
  return request.user;
}

/**
 * For "verified only" routes: the user if verified (`isVerified`, decided once in
 * auth/id-token.ts), else the typed 403 verified_required, with `visitorMessage` for a visitor
 * (an unconfirmed address is told to confirm it). Run it in `preValidation` where it must win
 * over the route's 404 or 400 (docs/api.md "Route conventions").
 */
export function requireVerifiedUser(request: FastifyRequest, visitorMessage?: string): AuthUser {
  const user = requireUser(request);
  if (!user.isVerified) throw notVerified(user, visitorMessage);
  return user;
}

export default fp(authPlugin, { name: 'yumecast-auth', fastify: '5.x' });
