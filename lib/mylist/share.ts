/**
 * Share a screenshot: with the Web Share API and the PNG itself where the browser can share
 * files (phones mostly), otherwise X's web intent with the title's page URL and its name.
 */
import { track } from '@/lib/analytics';
import { xShareUrl } from '@/lib/share/x';
import { fileStamp } from './format';

export type ShareOutcome = 'shared' | 'cancelled' | 'intent';

export interface ShareInput {
  blob: Blob;
  gameId: string;
  title: string;
  createdAt: number;
}

/** <gameId>-<YYYYMMDD-HHmmss>.png, the name of a downloaded or shared screenshot. */
export function screenshotFileName(gameId: string, createdAt: number): string {
  return `${gameId}-${fileStamp(createdAt)}.png`;
}

export function shareText(title: string): string {
  return `「${title}」のスクリーンショット`;
}

interface Env {
  navigator?: Pick<Navigator, 'canShare' | 'share'>;
  open: (url: string) => void;
}

const browserEnv = (): Env => ({
  navigator: typeof navigator === 'undefined' ? undefined : navigator,
  open: (url) => window.open(url, '_blank', 'noopener,noreferrer'),
});

export async function shareScreenshot(input: ShareInput, env: Env = browserEnv()): Promise<ShareOutcome> {
  const file = new File([input.blob], screenshotFileName(input.gameId, input.createdAt), { type: 'image/png' });
  const nav = env.navigator;
  if (nav?.canShare && nav.share && nav.canShare({ files: [file] })) {
    try {
      await nav.share({ files: [file], title: input.title, text: shareText(input.title) });
      return 'shared';
    } catch (e) {
      // The user closed the share sheet: nothing to do. Any other failure falls back to X.
      if (e instanceof Error && e.name === 'AbortError') return 'cancelled';
    }
  }
  const url = xShareUrl(shareText(input.title), input.gameId);
  track('outbound_link', { url, gameId: input.gameId });
  env.open(url);
  return 'intent';
}
