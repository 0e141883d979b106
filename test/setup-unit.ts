/**
 * Set-up of every unit test file: jest-dom's matchers, and the encoders jsdom leaves out.
 * React DOM's server renderer (the SSR checks render pages to a string) encodes with
 * TextEncoder, which Node has and jsdom's window does not.
 */
import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
