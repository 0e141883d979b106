import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { MyListOverview } from '@/components/mylist/MyListOverview';

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
      <MyListOverview />
    </RoutePage>
  );
}
