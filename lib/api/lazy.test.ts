/**
 * @jest-environment node
 *
 * lazyFailureMessage: the loaded api's wording of an error (the real client's errorMessage), and
 * the caller's fallback when the api's chunk cannot load.
 */
import { ApiClientError, clientError } from './client';
import { lazyFailureMessage } from './lazy';
import { messageFor } from './messages';

const FALLBACK = 'ブックマークできませんでした。もう一度お試しください。';
const words = lazyFailureMessage(
  () => import('./client'),
  (api, e, fallback) => api.errorMessage(e, fallback),
);

it('words an api error as the loaded api does', async () => {
  await expect(words(clientError('timeout', 'catalog'), FALLBACK)).resolves.toBe(messageFor('timeout', 'catalog'));
  await expect(words(new ApiClientError('bookmark_not_found', 404, 'サーバーの文言'), FALLBACK)).resolves.toBe('サーバーの文言');
});

it("gives the loaded api's fallback for an error it has no wording for", async () => {
  await expect(words(new TypeError('x is undefined'), FALLBACK)).resolves.toBe(FALLBACK);
});

it('gives the fallback, without rejecting, when the chunk itself cannot load', async () => {
  const word = jest.fn(() => 'never');
  const offline = lazyFailureMessage(() => Promise.reject(new Error('ChunkLoadError: Loading chunk 123 failed.')), word);
  await expect(offline(clientError('network'), FALLBACK)).resolves.toBe(FALLBACK);
  expect(word).not.toHaveBeenCalled();
});

it('loads the api only when a failure is worded', async () => {
  const load = jest.fn(() => Promise.resolve({ name: 'api' }));
  const lazy = lazyFailureMessage(load, (api, e) => `${api.name}: ${String(e)}`);
  expect(load).not.toHaveBeenCalled();
  await expect(lazy('boom', FALLBACK)).resolves.toBe('api: boom');
  expect(load).toHaveBeenCalledTimes(1);
});
