/**
 * The modal and toast layers load after the first paint (DeferredLayers, issue 12) and still
 * show what the store asks for: a modal asked for before the idle moment appears, the toasts'
 * live region exists once the page has been idle, and a closed modal fades out (stays mounted).
 */
import { act, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { displayModal, hideModal } from '@/store/slices/modal';
import { pushToast } from '@/store/slices/toastThunks';
import { DeferredLayers } from './DeferredLayers';

afterEach(() => {
  delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
  delete (window as { cancelIdleCallback?: unknown }).cancelIdleCallback;
});

/** An idle callback the test fires by hand. */
function holdIdle() {
  const queued: (() => void)[] = [];
  Object.assign(window, {
    requestIdleCallback: (cb: () => void) => queued.push(cb),
    cancelIdleCallback: () => undefined,
  });
  return () => act(() => queued.splice(0).forEach((cb) => cb()));
}

describe('DeferredLayers', () => {
  it('mounts neither layer before the page is idle', async () => {
    holdIdle();
    renderWithProviders(<DeferredLayers />);
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(screen.queryByTestId('toast-stack')).toBeNull();
    expect(screen.queryByTestId('modal-overlay')).toBeNull();
  });

  it('mounts both layers when the page is first idle (the toasts live region before any toast)', async () => {
    const fireIdle = holdIdle();
    renderWithProviders(<DeferredLayers />);
    fireIdle();
    expect(await screen.findByTestId('toast-stack')).toHaveAttribute('aria-live', 'polite');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a modal asked for before the idle moment, and keeps its layer mounted to fade out', async () => {
    holdIdle();
    const { store } = renderWithProviders(<DeferredLayers />);
    act(() => void store.dispatch(displayModal({ node: 'message', props: { title: 'お知らせ', message: '本文' } })));
    expect(await screen.findByRole('dialog')).toHaveTextContent('本文');
    act(() => void store.dispatch(hideModal()));
    // Still there while it fades out (MODAL_TRANSITION_MS), then gone: the layer was not unmounted at once.
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows a toast pushed before the idle moment', async () => {
    holdIdle();
    const { store } = renderWithProviders(<DeferredLayers />);
    act(() => void store.dispatch(pushToast('error', { message: 'ブックマークできませんでした。' })));
    expect(await screen.findByTestId('toast-stack')).toHaveTextContent('ブックマークできませんでした。');
  });
});
