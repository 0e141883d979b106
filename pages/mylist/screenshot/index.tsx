import { RoutePage } from '@/components/layout/RoutePage';
import { ScreenshotGallery } from '@/components/mylist/ScreenshotGallery';

export default function Screenshots() {
  return (
    <RoutePage title="スクリーンショット" path="/mylist/screenshot" gated>
      <ScreenshotGallery />
    </RoutePage>
  );
}
