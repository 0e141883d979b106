/**
 * One screenshot's metadata for the viewer. A malformed id never reaches the api; the api's 404
 * (another user's id, or a deleted one) and a malformed id both read as "not found".
 */
import { useEffect, useState } from 'react';
import { ApiClientError } from '@/lib/api/client';
import { getScreenshot, type Screenshot } from '@/lib/api/mylist';
import { useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';
import { errorMessage } from '@/lib/api/client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isScreenshotId(id: string): boolean {
  return UUID.test(id);
}

export type ScreenshotLoad =
  | { status: 'loading' }
  | { status: 'not_found' }
  | { status: 'error'; message: string }
  | { status: 'ready'; shot: Screenshot };

export function useScreenshot(id: string): ScreenshotLoad {
  const verified = useAppSelector(selectAuthState) === 'verified';
  const valid = isScreenshotId(id);
  const [held, setHeld] = useState<{ id: string; load: ScreenshotLoad } | null>(null);

  useEffect(() => {
    if (!verified || !valid) return;
    let live = true;
    getScreenshot(id)
      .then((shot) => live && setHeld({ id, load: { status: 'ready', shot } }))
      .catch((e: unknown) => {
        if (!live) return;
        const notFound = e instanceof ApiClientError && (e.httpStatus === 404 || e.code === 'screenshot_not_found');
        setHeld({ id, load: notFound ? { status: 'not_found' } : { status: 'error', message: errorMessage(e, 'スクリーンショットを読み込めませんでした。') } });
      });
    return () => {
      live = false;
    };
  }, [id, verified, valid]);

  if (!valid) return { status: 'not_found' };
  return held?.id === id ? held.load : { status: 'loading' };
}
