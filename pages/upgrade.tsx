/**
 * /upgrade (open; spec section 2, issue 9 §1 and §3.1): the plans as data from GET /v1/plans
 * (rendered on the server, no price in page code), the benefits the server enforces and the
 * premium titles by name. The button goes on by who is asking: a visitor to /signup/purchase
 * (sign-up by purchase), a verified user to /purchase/register-email; a user whose plan is
 * active is told so and sent to /settings/purchase instead of buying twice.
 */
import type { GetServerSideProps } from 'next';
import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { FormMessage } from '@/components/form/Field';
import { PlanCard } from '@/components/purchase/PlanCard';
import { PurchaseLegalLinks } from '@/components/purchase/PurchaseLegalLinks';
import { ButtonLink } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { ApiClientError, messageFor } from '@/lib/api/client';
import { fetchPlans, fetchPremiumTitles, type Plan, type PremiumTitle } from '@/lib/api/purchase';
import { planStatus } from '@/lib/purchase/plan';
import { REGISTER_EMAIL_PATH, SETTINGS_PURCHASE_PATH, SIGNUP_PURCHASE_PATH, UPGRADE_PATH, withPlan } from '@/lib/purchase/paths';
import { useAppSelector } from '@/store/hooks';
import { selectAuthState, selectUser } from '@/store/slices/user';

interface Props {
  plans: Plan[] | null;
  premiumTitles: PremiumTitle[];
  /** Japanese message when the plans could not be read. */
  error: string | null;
}

export const getServerSideProps: GetServerSideProps<Props> = async ({ res }) => {
  const [plans, titles] = await Promise.allSettled([fetchPlans(), fetchPremiumTitles()]);
  if (plans.status === 'fulfilled') res.setHeader('Cache-Control', 'public, s-maxage=60, stale-while-revalidate=300');
  return {
    props: {
      plans: plans.status === 'fulfilled' ? plans.value : null,
      premiumTitles: titles.status === 'fulfilled' ? titles.value : [],
      error: plans.status === 'rejected' ? (plans.reason instanceof ApiClientError ? plans.reason.userMessage : messageFor('unexpected')) : null,
    },
  };
};

export default function Upgrade({ plans, premiumTitles, error }: Props) {
  const authState = useAppSelector(selectAuthState);
  const user = useAppSelector(selectUser);
  const active = planStatus(user?.paymentExpirationTime).kind === 'active';
  const verified = authState === 'verified';
  const next = (planId: string) => withPlan(verified ? REGISTER_EMAIL_PATH : SIGNUP_PURCHASE_PATH, planId);

  return (
    <RoutePage title="プレミアムプラン" path={UPGRADE_PATH} description="ユメキャストのプレミアムプランなら、プレミアム作品が遊び放題。">
      {active && (
        <FormMessage data-testid="upgrade-active">
          プレミアムプランをご利用中です。<Link href={SETTINGS_PURCHASE_PATH}>プランとお支払いを確認する</Link>
        </FormMessage>
      )}
      {plans === null ? (
        <EmptyState title="プランを読み込めませんでした">
          <p data-testid="upgrade-error">{error}</p>
          <ButtonLink href={UPGRADE_PATH} $variant="primary">
            もう一度読み込む
          </ButtonLink>
        </EmptyState>
      ) : plans.length === 0 ? (
        <EmptyState title="現在お申し込みいただけるプランはありません" />
      ) : (
        plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            premiumTitles={premiumTitles}
            href={active ? SETTINGS_PURCHASE_PATH : next(plan.id)}
            ctaLabel={active ? 'ご契約内容を見る' : `${plan.name}に登録する`}
          />
        ))
      )}
      <PurchaseLegalLinks />
    </RoutePage>
  );
}
