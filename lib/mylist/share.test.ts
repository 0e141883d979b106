import { shareScreenshot, type ShareInput } from './share';

jest.mock('@/lib/analytics', () => ({ track: jest.fn() }));

const input: ShareInput = { blob: new Blob([new Uint8Array([1])], { type: 'image/png' }), gameId: 'g', title: '夢', createdAt: Date.UTC(2025, 2, 3, 23, 5) };

describe('shareScreenshot', () => {
  it('shares the PNG file where the browser can share files', async () => {
    const share = jest.fn(async () => undefined);
    const open = jest.fn();
    await expect(shareScreenshot(input, { navigator: { canShare: () => true, share }, open })).resolves.toBe('shared');
    const data = (share.mock.calls[0] as unknown as [ShareData])[0];
    expect(data.files?.[0].name).toBe('g-20250304-080500.png');
    expect(data.files?.[0].type).toBe('image/png');
    expect(open).not.toHaveBeenCalled();
  });

  it('does nothing more when the user closes the share sheet', async () => {
    const share = jest.fn(async () => {
      throw new DOMException('cancelled', 'AbortError');
    });
    const open = jest.fn();
    await expect(shareScreenshot(input, { navigator: { canShare: () => true, share }, open })).resolves.toBe('cancelled');
    expect(open).not.toHaveBeenCalled();
  });

  it('opens the X intent with the title page URL otherwise', async () => {
    const open = jest.fn();
    await expect(shareScreenshot(input, { navigator: { canShare: () => false, share: jest.fn() }, open })).resolves.toBe('intent');
    const url = new URL(open.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe('https://twitter.com/intent/tweet');
    expect(url.searchParams.get('text')).toBe('「夢」のスクリーンショット');
    expect(url.searchParams.get('url')).toMatch(/\/title\/g$/);
    await expect(shareScreenshot(input, { open })).resolves.toBe('intent');
  });
});
