import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { ScreenshotViewer } from '@/components/mylist/ScreenshotViewer';
import { LoadingBlock } from '@/components/ui/Spinner';

export default function Screenshot() {
  const { query, isReady } = useRouter();
  const id = typeof query.id === 'string' ? query.id : '';
  return (
    <RoutePage title="スクリーンショット" path={`/mylist/screenshot/${encodeURIComponent(id)}`} gated>
      {/* The id is known only once the router is ready (static page, dynamic segment). */}
      {isReady ? <ScreenshotViewer id={id} /> : <LoadingBlock />}
    </RoutePage>
  );
}
