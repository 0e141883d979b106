import Link from 'next/link';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { PageHead } from '@/components/seo/PageHead';
import { AuthGate } from '@/components/layout/GuardContext';
import { EmptyState } from '@/components/ui/EmptyState';

const Stage = styled.div`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  padding: 16px;
  background: #000;
  color: #fff;
  h1 {
    font-size: 1.1rem;
  }
`;

export default function Play() {
  const { query } = useRouter();
  const id = typeof query.id === 'string' ? query.id : '';
  return (
    <>
      <PageHead title="プレイ" path={`/play/${encodeURIComponent(id)}`} />
      <Stage data-testid="play-stage">
        <h1>ゲームプレイ</h1>
        <AuthGate>
          <EmptyState title="ゲームの配信を準備しています">
            <p>
              このタイトルのストリーミングはまだ開始できません。<Link href={`/title/${encodeURIComponent(id)}`}>作品ページへ戻る</Link>
            </p>
          </EmptyState>
        </AuthGate>
      </Stage>
    </>
  );
}
