import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { useAppSelector } from '@/store/hooks';

const Table = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 10px 20px;
  dt {
    color: ${({ theme }) => theme.textMuted};
  }
  dd {
    margin: 0;
    word-break: break-all;
  }
`;

function formatDate(unixSeconds: number | null): string {
  if (!unixSeconds) return '—';
  return new Date(unixSeconds * 1000).toLocaleDateString('ja-JP', { year: 'numeric', month: 'long', day: 'numeric' });
}

export default function Account() {
  const user = useAppSelector((s) => s.user.user);
  return (
    <RoutePage title="アカウント情報" path="/settings/account" narrow gated>
      {user && (
        <Table data-testid="account-info">
          <dt>表示名</dt>
          <dd>{user.name}</dd>
          <dt>メールアドレス</dt>
          <dd>{user.email}</dd>
          <dt>メール確認</dt>
          <dd>{user.emailVerified ? '確認済み' : '未確認'}</dd>
          <dt>X（Twitter）連携</dt>
          <dd>{user.canTwitterLoggedIn ? '連携済み' : '未連携'}</dd>
          <dt>登録日</dt>
          <dd>{formatDate(user.createdAt)}</dd>
          <dt>プレミアムプラン</dt>
          <dd>{user.paymentExpirationTime ? `${formatDate(user.paymentExpirationTime)} まで有効` : '未加入'}</dd>
        </Table>
      )}
    </RoutePage>
  );
}
