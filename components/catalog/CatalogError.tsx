import { useRouter } from 'next/router';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';

/** The catalogue could not be read (api down, timeout): a Japanese message and a retry. */
export function CatalogError({ message }: { message: string }) {
  const router = useRouter();
  return (
    <EmptyState title="カタログを表示できませんでした">
      <p data-testid="catalog-error">{message}</p>
      <Button onClick={() => void router.replace(router.asPath)}>もう一度読み込む</Button>
    </EmptyState>
  );
}
