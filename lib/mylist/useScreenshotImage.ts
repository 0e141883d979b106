/**
 * A screenshot's PNG as an object URL: the image needs the bearer header, so it is fetched and
 * wrapped with URL.createObjectURL, and the URL is revoked when the id changes or the component
 * unmounts (no leaked blobs while paging through a gallery).
 */
import { useEffect, useState } from 'react';
import { fetchScreenshotImage } from '@/lib/api/mylist';
import { errorMessage } from './useBookmark';

export interface ScreenshotImage {
  url: string | null;
  blob: Blob | null;
  error: string | null;
}

interface Held {
  id: string;
  url: string | null;
  blob: Blob | null;
  error: string | null;
}

export function useScreenshotImage(id: string | null): ScreenshotImage {
  const [held, setHeld] = useState<Held | null>(null);

  useEffect(() => {
    if (!id) return;
    const abort = new AbortController();
    let url: string | null = null;
    fetchScreenshotImage(id, abort.signal)
      .then((blob) => {
        if (abort.signal.aborted) return;
        url = URL.createObjectURL(blob);
        setHeld({ id, url, blob, error: null });
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setHeld({ id, url: null, blob: null, error: errorMessage(e, '画像を読み込めませんでした。') });
      });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);

  const mine = held && held.id === id ? held : null;
  return { url: mine?.url ?? null, blob: mine?.blob ?? null, error: mine?.error ?? null };
}
