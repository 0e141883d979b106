import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { FormMessage } from '@/components/form/Field';
import { LoadingBlock } from '@/components/ui/Spinner';
import { LinkButton } from '@/components/ui/Button';
import { activateEmailLink, type ActivationOutcome } from '@/lib/auth/emailLink';
import { errorCodeOf } from '@/lib/auth/errors';
import { authMessage } from '@/lib/auth/messages';
import { firstQueryValue, safeRedirectPath } from '@/lib/auth/safeRedirect';
import { REGISTER_CARD_PATH, REGISTER_EMAIL_PATH, SETTINGS_PURCHASE_PATH, SIGNUP_PURCHASE_PATH } from '@/lib/purchase/paths';
import { planStatus } from '@/lib/purchase/plan';
import { useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';

const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
`;

/** How long to wait for the visitor's (anonymous) sign-in before activating anyway (→ 401). */
const USER_WAIT_MS = 10_000;
/** Without a usable `next` (missing, or another site's): the card step. */
const DEFAULT_NEXT = REGISTER_CARD_PATH;

type View = { kind: 'working' } | { kind: 'done'; outcome: ActivationOutcome } | { kind: 'error'; code: string };

/**
 * Return address of the e-mail sign-in link used during purchase (spec sections 2, 5, 7):
 * activates the link for the signed-in user (linked, uid kept). Fails with 401 without a user
 * and "No email link" when the address is not a sign-in link or the e-mail was not stored on
 * this device. `next` is followed only when it is a path of this site (/signup/purchase sends
 * /purchase/register-email; without one, /purchase/register-card). A failed link offers to
 * send a new one: from /purchase/register-email when verified, /signup/purchase for a visitor.
 * A link that fails while a verified user with a confirmed address is signed in (typically the
 * used link opened again) is no matter: the page says the address is registered and leads on to
 * `next`, or to /settings/purchase for a subscriber.
 */
export default function PurchaseLinkCallback() {
  const router = useRouter();
  const authState = useAppSelector(selectAuthState);
  const user = useAppSelector((s) => s.user.user);
  const [view, setView] = useState<View>({ kind: 'working' });
  const [waitedLongEnough, setWaited] = useState(false);
  const started = useRef(false);
  const next = safeRedirectPath(firstQueryValue(router.query.next)) ?? DEFAULT_NEXT;
  // Signed in with a confirmed address: nothing is left for a sign-in link to do.
  const registered = authState === 'verified' && !!user?.email && user.emailVerified;
  const wayOn = registered && planStatus(user.paymentExpirationTime).kind === 'active' ? SETTINGS_PURCHASE_PATH : next;

  useEffect(() => {
    const t = setTimeout(() => setWaited(true), USER_WAIT_MS);
    return () => clearTimeout(t);
  }, []);

  useEffect(() => {
    if (!router.isReady || started.current) return;
    const hasUser = authState === 'anonymous' || authState === 'verified';
    if (!hasUser && !waitedLongEnough) return;
    started.current = true;
    const href = window.location.href;
    activateEmailLink(href)
      .then((outcome) => setView({ kind: 'done', outcome }))
      .catch((e) => setView({ kind: 'error', code: errorCodeOf(e) }))
      .finally(() => {
        // The one-time code must not stay in the address bar or the history.
        if (/[?&]oobCode=/.test(window.location.search)) {
          const url = new URL(window.location.href);
          for (const k of ['mode', 'oobCode', 'apiKey', 'lang', 'continueUrl', 'tenantId']) url.searchParams.delete(k);
          window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
        }
      });
  }, [router.isReady, authState, waitedLongEnough]);

  return (
    <RoutePage title="ログインリンクの確認" path="/purchase/link-callback" narrow>
      <div data-testid="purchase-link-callback" data-state={view.kind}>
        {view.kind === 'working' && (
          <>
            <LoadingBlock label="ログイン用リンクを確認しています…" />
            {!registered && <p>このページは、リンクを送ったのと同じ端末・ブラウザで開いてください。</p>}
          </>
        )}
        {view.kind === 'done' && view.outcome === 'redirecting' && <LoadingBlock label="X（Twitter）で再ログインしています…" />}
        {view.kind === 'done' && view.outcome !== 'redirecting' && (
          <>
            <FormMessage data-testid="link-success">
              {view.outcome === 'linked' ? 'メールアドレスを登録しました。' : 'このメールアドレスのアカウントにログインしました。'}
            </FormMessage>
            <Actions>
              <LinkButton href={next} $variant="primary" $block data-testid="link-continue">
                続ける
              </LinkButton>
            </Actions>
          </>
        )}
        {view.kind === 'error' && registered && (
          <>
            <FormMessage data-testid="link-registered" data-code={view.code}>
              メールアドレス（{user.email}）は登録済みで、ログインしています。このリンクをもう一度開く必要はありません。
            </FormMessage>
            <Actions>
              <LinkButton href={wayOn} $variant="primary" $block data-testid="link-continue">
                {wayOn === SETTINGS_PURCHASE_PATH ? 'プランとお支払いを確認する' : '続ける'}
              </LinkButton>
            </Actions>
          </>
        )}
        {view.kind === 'error' && !registered && (
          <>
            <FormMessage $kind="error" role="alert" data-testid="link-error" data-code={view.code}>
              {authMessage(view.code)}
            </FormMessage>
            <Actions>
              <LinkButton href={authState === 'verified' ? REGISTER_EMAIL_PATH : SIGNUP_PURCHASE_PATH} $variant="normal" $block>
                メールを送り直す
              </LinkButton>
            </Actions>
          </>
        )}
      </div>
    </RoutePage>
  );
}
