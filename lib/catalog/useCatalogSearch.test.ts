/**
 * Search as you type with the catalogue api loaded on first use (issue 12): a typed query runs
 * through the lazily loaded api, a failed search shows the api's wording, and when the api's
 * chunk itself cannot load (offline) the client's own `catalog.network` message.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { messageFor } from '@/lib/api/client';
import { SEARCH_DEBOUNCE_MS, useCatalogSearch } from './useCatalogSearch';

jest.mock('next/router', () => ({ __esModule: true, default: { replace: jest.fn(() => Promise.resolve(true)) } }));
jest.mock('@/lib/analytics', () => ({ track: jest.fn() }));
const searchCatalog = jest.fn();
/** While true, the catalogue api's module fails to load, as its chunk does offline. */
let mockChunkFails = false;
jest.mock('@/lib/api/catalog', () => {
  if (mockChunkFails) throw new Error('ChunkLoadError: Loading chunk 42 failed.');
  return { ...jest.requireActual('@/lib/api/catalog'), searchCatalog: (...a: unknown[]) => searchCatalog(...a) };
});

it('runs a typed query through the api once typing pauses', async () => {
  searchCatalog.mockResolvedValue({ query: 'あめ', normalizedQuery: 'あめ', total: 0, titles: [], nextCursor: null });
  const { result } = renderHook(() => useCatalogSearch('', null, null));
  act(() => result.current.setInput('あめ'));
  expect(searchCatalog).not.toHaveBeenCalled();
  await waitFor(() => expect(result.current.result?.query).toBe('あめ'), { timeout: SEARCH_DEBOUNCE_MS + 2_000 });
  expect(searchCatalog).toHaveBeenCalledWith('あめ');
});

it('shows the api error wording when the search fails', async () => {
  const { clientError } = jest.requireActual('@/lib/api/client') as typeof import('@/lib/api/client');
  searchCatalog.mockRejectedValue(clientError('timeout', 'catalog'));
  const { result } = renderHook(() => useCatalogSearch('', null, null));
  act(() => result.current.setInput('x'));
  await waitFor(() => expect(result.current.error).toBe(messageFor('timeout', 'catalog')), { timeout: SEARCH_DEBOUNCE_MS + 2_000 });
});

it("words a search whose api chunk cannot load (offline) as the client words a catalogue network failure", async () => {
  // a fresh module registry, so the hook's import of the api runs (and fails) again
  jest.resetModules();
  mockChunkFails = true;
  searchCatalog.mockReset();
  try {
    const { result } = renderHook(() => useCatalogSearch('', null, null));
    act(() => result.current.setInput('x'));
    await waitFor(() => expect(result.current.error).toBe(messageFor('network', 'catalog')), { timeout: SEARCH_DEBOUNCE_MS + 2_000 });
    expect(searchCatalog).not.toHaveBeenCalled();
  } finally {
    mockChunkFails = false;
    jest.resetModules();
  }
});
