import { Link } from '@/components/ui/Link';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { Button } from '@/components/ui/Button';
import { Section, SectionTitle } from '@/components/ui/Page';
import { useThemeSwitch } from '@/components/theme/ThemeSwitch';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';
import { displayModal } from '@/store/slices/modal';
import { logout } from '@/lib/auth/emailAuth';
import { pushToast } from '@/store/slices/toastThunks';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  border: 1px solid ${({ theme }) => theme.border};
  border-radius: 12px;
  overflow: hidden;
  li + li {
    border-top: 1px solid ${({ theme }) => theme.border};
  }
  a,
  .row {
    display: flex;
    justify-content: space-between;
    align-items: center;
    padding: 14px 16px;
    color: ${({ theme }) => theme.text};
    text-decoration: none;
  }
  /* the list clips to its rounded corners: a row's focus ring goes inside the row, not around it */
  a:focus-visible {
    outline-offset: -3px;
  }
`;

function AccountMenu() {
  const router = useRouter();
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.user.user);
  return (
    <Section>
      <SectionTitle>アカウント</SectionTitle>
      <p data-testid="settings-user">{user?.name}</p>
      <List>
        <li>
          <Link href="/settings/account">アカウント情報</Link>
        </li>
        <li>
          <Link href="/settings/email">メールアドレスの変更</Link>
        </li>
        <li>
          <Link href="/settings/password">パスワードの変更</Link>
        </li>
        <li>
          <Link href="/settings/purchase">プランとお支払い</Link>
        </li>
      </List>
      <p>
        <Button
          $variant="text-attention"
          data-testid="logout"
          onClick={async () => {
            // home first: /settings without a user is the wide screen's login notice
            await router.push('/');
            const res = await logout();
            dispatch(pushToast(res.result ? 'success' : 'error', { message: res.result ? 'ログアウトしました' : 'ログアウトできませんでした。もう一度お試しください。' }));
          }}
        >
          ログアウト
        </Button>
      </p>
    </Section>
  );
}

function VisitorMenu() {
  const dispatch = useAppDispatch();
  return (
    <Section>
      <SectionTitle>アカウント</SectionTitle>
      <p>ログインすると、プレイ履歴やブックマーク、スクリーンショットがどの端末からでも使えます。</p>
      <Button $variant="primary" $block onClick={() => dispatch(displayModal({ node: 'login' }))}>
        ログイン・新規登録
      </Button>
    </Section>
  );
}

export default function Settings() {
  const authState = useAppSelector(selectAuthState);
  const { theme, setTheme } = useThemeSwitch();
  return (
    <RoutePage title="設定" path="/settings" gated>
      {authState === 'verified' ? <AccountMenu /> : <VisitorMenu />}
      <Section>
        <SectionTitle>表示</SectionTitle>
        <List>
          <li>
            <label className="row">
              ダークテーマ
              <input
                type="checkbox"
                checked={theme === 'dark'}
                onChange={(e) => setTheme(e.target.checked ? 'dark' : 'light')}
                data-testid="dark-theme-switch"
              />
            </label>
          </li>
        </List>
      </Section>
      <Section>
        <SectionTitle>このサービスについて</SectionTitle>
        <List>
          <li>
            <Link href="/terms">利用規約</Link>
          </li>
          <li>
            <Link href="/privacy">プライバシーポリシー</Link>
          </li>
          <li>
            <Link href="/purpose">個人情報の利用目的</Link>
          </li>
        </List>
      </Section>
    </RoutePage>
  );
}
