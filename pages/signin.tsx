import Link from 'next/link';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { ButtonLink } from '@/components/ui/Button';
import { useAppDispatch } from '@/store/hooks';
import { displayModal } from '@/store/slices/modal';
import { Button } from '@/components/ui/Button';

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  p {
    color: ${({ theme }) => theme.textMuted};
    line-height: 1.8;
  }
`;

export default function SignIn() {
  const dispatch = useAppDispatch();
  return (
    <RoutePage title="ログイン・新規登録" path="/signin" narrow gated>
      <Stack>
        <p>ユメキャストのご利用には、メールアドレスの登録が必要です。</p>
        <Button $variant="intense" $size="large" $block onClick={() => dispatch(displayModal({ node: 'login' }))}>
          X（Twitter）でログイン
        </Button>
        <Link href="/email/login" passHref legacyBehavior>
          <ButtonLink $variant="normal" $size="large" $block>
            メールアドレスでログイン
          </ButtonLink>
        </Link>
        <Link href="/email/signup">メールアドレスで新規登録</Link>
        <p>
          登録することで、<Link href="/terms">利用規約</Link>と<Link href="/privacy">プライバシーポリシー</Link>に同意したものとみなします。
        </p>
      </Stack>
    </RoutePage>
  );
}
