/**
 * A screenshot's picture as an object URL: the full PNG (the viewer) or the small WebP thumbnail
 * (gallery tiles). It needs the bearer header, so it is fetched and wrapped with
 * URL.createObjectURL, and the URL is revoked when the id changes or the component unmounts (no
 * leaked blobs while paging through a gallery).
 */
import { useEffect, useState } from 'react';
import { fetchScreenshotImage, fetchScreenshotThumbnail, type ScreenshotPicture } from '@/lib/api/mylist';
import { errorMessage } from '@/lib/api/client';

export interface ScreenshotImage {
  url: string | null;
  blob: Blob | null;
  error: string | null;
}

interface Held {
  id: string;
  picture: ScreenshotPicture;
  url: string | null;
  blob: Blob | null;
  error: string | null;
}

const FETCH: Record<ScreenshotPicture, (id: string, signal: AbortSignal) => Promise<Blob>> = {
  image: fetchScreenshotImage,
  thumbnail: fetchScreenshotThumbnail,
};

export function useScreenshotImage(id: string | null, picture: ScreenshotPicture = 'image'): ScreenshotImage {
  const [held, setHeld] = useState<Held | null>(null);

  useEffect(() => {
    if (!id) return;
    const abort = new AbortController();
    let url: string | null = null;
    FETCH[picture](id, abort.signal)
      .then((blob) => {
        if (abort.signal.aborted) return;
        url = URL.createObjectURL(blob);
        setHeld({ id, picture, url, blob, error: null });
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setHeld({ id, picture, url: null, blob: null, error: errorMessage(e, '画像を読み込めませんでした。') });
      });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, picture]);

  const mine = held && held.id === id && held.picture === picture ? held : null;
  return { url: mine?.url ?? null, blob: mine?.blob ?? null, error: mine?.error ?? null };
}
