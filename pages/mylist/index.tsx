import Link from 'next/link';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';
import { Section, SectionTitle } from '@/components/ui/Page';

const Menu = styled.nav`
  display: flex;
  gap: 12px;
  flex-wrap: wrap;
  margin-bottom: 24px;
`;

export default function MyList() {
  return (
    <RoutePage title="マイリスト" path="/mylist" gated>
      <Menu aria-label="マイリストのメニュー">
        <Link href="/mylist/bookmark">ブックマーク</Link>
        <Link href="/mylist/history">プレイ履歴</Link>
        <Link href="/mylist/screenshot">スクリーンショット</Link>
      </Menu>
      <Section>
        <SectionTitle>最近プレイしたタイトル</SectionTitle>
        <EmptyState title="まだプレイ履歴はありません">
          <p>タイトルを遊ぶと、ここから続きをすぐに再開できます。</p>
        </EmptyState>
      </Section>
    </RoutePage>
  );
}
