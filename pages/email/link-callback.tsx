import { useEffect, useRef, useState } from 'react';
import { Link } from '@/components/ui/Link';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { FormMessage } from '@/components/form/Field';
import { CredentialForm } from '@/components/form/PasswordFields';
import { LoadingBlock } from '@/components/ui/Spinner';
import { LinkButton } from '@/components/ui/Button';
import { useQueryReady } from '@/components/layout/useQueryReady';
import { applyEmailAction, checkPasswordResetCode, parseActionMode, resetPasswordWithCode, type ActionMode } from '@/lib/auth/actionCode';
import { authMessage } from '@/lib/auth/messages';
import { firstQueryValue, safeRedirectPath } from '@/lib/auth/safeRedirect';
import { useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';

const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  margin-top: 8px;
`;

type View =
  | { kind: 'working' }
  | { kind: 'done'; mode: ActionMode; email: string | null; signedOut: boolean }
  | { kind: 'resetForm'; email: string; oobCode: string }
  | { kind: 'resetDone'; email: string }
  | { kind: 'error'; code: string };

const TITLES: Record<string, string> = {
  verifyEmail: 'メールアドレスの確認',
  verifyAndChangeEmail: 'メールアドレスの変更',
  recoverEmail: 'メールアドレスの復元',
  resetPassword: 'パスワードの再設定',
};

/** What a failed link of each kind says beside its login button. */
const ERROR_HINTS: Partial<Record<ActionMode, string>> = {
  verifyEmail: 'ログインすると、確認メールがもう一度送信されます。すでに確認が済んでいる場合は、そのままログインできます。',
  verifyAndChangeEmail: 'メールアドレスの変更は、ログインしてからアカウント設定でもう一度お手続きください。すでに変更が済んでいる場合は、新しいメールアドレスでログインできます。',
  recoverEmail: 'すでにメールアドレスを戻している場合は、元のメールアドレスでログインできます。',
};

/**
 * What a failed link offers depends on its kind: a verification mail is sent again by logging in
 * (spec: an unverified address re-sends it at login), a reset link by the reset page; the other
 * kinds cannot be re-sent from here, so they only lead to the login (a password reset is never
 * offered for them).
 */
function ErrorActions({ mode }: { mode: ActionMode | null }) {
  if (mode === 'resetPassword') {
    return (
      <Actions>
        <LinkButton href="/email/password/reset" $variant="primary" $block data-testid="link-error-resend">
          パスワード再設定メールを送り直す
        </LinkButton>
        <Link href="/email/login">ログイン画面へ</Link>
      </Actions>
    );
  }
  const hint = mode ? ERROR_HINTS[mode] : undefined;
  // An e-mail change is asked for again on /settings/email, so the login leads there.
  const login = mode === 'verifyAndChangeEmail' ? '/email/login?next=%2Fsettings%2Femail' : '/email/login';
  return (
    <>
      {hint && <p data-testid="link-error-hint">{hint}</p>}
      <Actions>
        <LinkButton href={login} $variant={mode === 'verifyEmail' ? 'primary' : 'normal'} $block data-testid="link-error-login">
          ログイン画面へ
        </LinkButton>
      </Actions>
    </>
  );
}

/** One apply per code, even if the effect runs twice (a code can be used once only). */
const started = new Map<string, Promise<View>>();

async function run(mode: ActionMode, oobCode: string | undefined): Promise<View> {
  if (mode === 'resetPassword') {
    const r = await checkPasswordResetCode(oobCode);
    return r.result ? { kind: 'resetForm', email: r.email, oobCode: oobCode! } : { kind: 'error', code: r.code };
  }
  const r = await applyEmailAction(mode, oobCode);
  return r.result ? { kind: 'done', mode, email: r.email, signedOut: r.signedOut } : { kind: 'error', code: r.code };
}

/**
 * Our custom action handler (spec section 7): verification, e-mail change, e-mail recovery and
 * password reset links land here. Used, expired and foreign codes get a clear message and the
 * way out that fits the link's kind (ErrorActions); the optional continueUrl is followed only
 * when it points back to this site.
 */
export default function EmailLinkCallback() {
  const router = useRouter();
  const queryReady = useQueryReady();
  const authState = useAppSelector(selectAuthState);
  const [state, setView] = useState<View>({ kind: 'working' });
  const done = useRef(false);
  const mode = parseActionMode(firstQueryValue(router.query.mode));
  const oobCode = firstQueryValue(router.query.oobCode);
  const requested = safeRedirectPath(firstQueryValue(router.query.continueUrl));
  // The mails' continueUrl is this page itself (spec section 7); only another page is worth a button.
  const continuePath = requested && !requested.startsWith('/email/link-callback') ? requested : null;

  useEffect(() => {
    if (!router.isReady || done.current) return;
    done.current = true;
    if (mode === 'signIn') {
      // A sign-in link belongs to the purchase callback; keep only the parameters it reads.
      const { oobCode: code, apiKey, lang } = router.query;
      void router.replace({ pathname: '/purchase/link-callback', query: { mode: 'signIn', oobCode: code, apiKey, lang } });
      return;
    }
    if (!mode) return; // shown below without a network call
    const key = `${mode}:${oobCode ?? ''}`;
    if (!started.has(key)) started.set(key, run(mode, oobCode));
    void started.get(key)!.then(setView);
  }, [router, mode, oobCode]);

  const title = (mode && TITLES[mode]) || 'メールのリンク';
  const view: View =
    queryReady && !mode ? { kind: 'error', code: oobCode ? 'auth/invalid-action-mode' : 'auth/missing-action-code' } : state;
  const signedIn = authState === 'verified';

  return (
    <RoutePage title={title} path="/email/link-callback" narrow>
      <div data-testid="link-callback" data-state={view.kind}>
        {view.kind === 'working' && <LoadingBlock label="リンクを確認しています…" />}

        {view.kind === 'error' && (
          <>
            <FormMessage $kind="error" role="alert" data-testid="link-error" data-code={view.code}>
              {authMessage(view.code)}
            </FormMessage>
            <ErrorActions mode={mode} />
          </>
        )}

        {view.kind === 'done' && (
          <>
            <FormMessage data-testid="link-success">
              {view.mode === 'verifyEmail' && <>メールアドレス{view.email ? `（${view.email}）` : ''}の確認が完了しました。</>}
              {view.mode === 'verifyAndChangeEmail' && <>メールアドレスを{view.email ? ` ${view.email} ` : ''}に変更しました。</>}
              {view.mode === 'recoverEmail' && <>メールアドレスを{view.email ? ` ${view.email} ` : ''}に戻しました。念のため、パスワードの変更をおすすめします。</>}
              {/* A confirmed address logs in as it is; a changed or restored one with the new details. */}
              {(view.signedOut || !signedIn) && (view.mode === 'verifyEmail' ? <> ログインしてください。</> : <> 新しい情報でログインしてください。</>)}
            </FormMessage>
            <Actions>
              {view.signedOut || !signedIn ? (
                <LinkButton href="/email/login" $variant="primary" $block data-testid="link-continue">
                  ログインする
                </LinkButton>
              ) : (
                <LinkButton href={continuePath ?? '/settings/account'} $variant="primary" $block data-testid="link-continue">
                  続ける
                </LinkButton>
              )}
            </Actions>
          </>
        )}

        {view.kind === 'resetForm' && (
          <>
            <p>{view.email} の新しいパスワードを設定してください（6文字以上）。</p>
            <CredentialForm
              fields={{ newPassword: true }}
              submitLabel="パスワードを設定する"
              onSubmit={(v) => resetPasswordWithCode(view.oobCode, v.newPassword)}
              onSuccess={() => setView({ kind: 'resetDone', email: view.email })}
            />
          </>
        )}

        {view.kind === 'resetDone' && (
          <>
            <FormMessage data-testid="link-success">パスワードを再設定しました。新しいパスワードでログインしてください。</FormMessage>
            <Actions>
              <LinkButton href={signedIn ? '/' : '/email/login'} $variant="primary" $block data-testid="link-continue">
                {signedIn ? 'ホームへ' : 'ログインする'}
              </LinkButton>
            </Actions>
          </>
        )}
      </div>
    </RoutePage>
  );
}
