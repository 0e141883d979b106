/**
 * Yumecast's Firebase functions (docs/functions.md). Exported groups become name prefixes:
 * `payment.invokePaymentRequest` is the callable `payment-invokePaymentRequest`.
 * Built to functions/lib/index.js by scripts/stack/functions.ts (esbuild, one CommonJS file;
 * firebase-functions and firebase-admin stay external).
 */
import { invokePaymentRequest } from './payment/invokePaymentRequest';

export const payment = { invokePaymentRequest };
