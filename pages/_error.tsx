import type { NextPageContext } from 'next';
import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { Lead } from '@/components/ui/Page';

/** Unexpected errors: a Japanese message, never a stack trace. */
function AppError({ statusCode }: { statusCode?: number }) {
  return (
    <RoutePage title="エラーが発生しました" path="/error" narrow>
      <Lead>
        申し訳ありません。ページを表示できませんでした{statusCode ? `（エラー ${statusCode}）` : ''}。時間をおいてもう一度お試しください。
      </Lead>
      <p>
        <Link href="/">ホームへ戻る</Link>
      </p>
    </RoutePage>
  );
}

AppError.getInitialProps = ({ res, err }: NextPageContext) => ({ statusCode: res?.statusCode ?? err?.statusCode ?? 500 });

export default AppError;
