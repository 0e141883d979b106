/**
 * The browser's Firebase Functions client (callable functions), created once and only in the
 * browser. Only the purchase pages need it, and they load this module with a dynamic import
 * (lib/purchase/billingEmail.ts), so `firebase/functions` stays out of every other page's bundle.
 * In local mode the callables run in the Functions emulator: NEXT_PUBLIC_FUNCTIONS_EMULATOR_HOST
 * (host:port, set by the local stack); built as an empty string, the real project's functions
 * are called. NEXT_PUBLIC_FUNCTIONS_REGION names the functions' region (default asia-northeast1,
 * functions/src/config.ts FUNCTIONS_REGION).
 */
import { connectFunctionsEmulator, getFunctions, type Functions } from 'firebase/functions';
import { isLocalMode } from '@/lib/config';
import { firebaseApp } from './client';

/** The emulator's default port (firebase.json), used in local mode when the stack names none. */
const LOCAL_DEFAULT = '127.0.0.1:5001';

/** host:port of the Functions emulator, or '' for the real project. */
export function functionsEmulatorHost(value: string | undefined = process.env.NEXT_PUBLIC_FUNCTIONS_EMULATOR_HOST, local = isLocalMode): string {
  if (value !== undefined) return value.trim();
  return local ? LOCAL_DEFAULT : '';
}

/** Splits "host:port" (IPv6 in brackets allowed); null when it is not one. */
export function parseHostPort(value: string): { host: string; port: number } | null {
  const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(value.trim());
  if (!m) return null;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1], port } : null;
}

let functions: Functions | null = null;

export function firebaseFunctions(): Functions {
  if (functions) return functions;
  const region = process.env.NEXT_PUBLIC_FUNCTIONS_REGION?.trim() || 'asia-northeast1';
  functions = getFunctions(firebaseApp(), region);
  const emulator = parseHostPort(functionsEmulatorHost());
  if (emulator) connectFunctionsEmulator(functions, emulator.host, emulator.port);
  return functions;
}
