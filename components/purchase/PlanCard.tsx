/**
 * One plan on /upgrade: name, price (tax included) and period from the api's plan data (never
 * from page code), the benefits the server enforces (lib/purchase/benefits), the premium titles
 * by name, and the button that starts the purchase.
 */
import styled from 'styled-components';
import { LinkButton } from '@/components/ui/Button';
import type { Plan, PremiumTitle } from '@/lib/api/purchase';
import { PLAN_BENEFITS } from '@/lib/purchase/benefits';
import { periodLabel, priceLabel } from '@/lib/purchase/format';

const Box = styled.section`
  padding: 24px;
  border-radius: 16px;
  border: 2px solid ${({ theme }) => theme.primary};
  background: ${({ theme }) => theme.surface};
  margin: 0 0 20px;
  h2 {
    margin: 0 0 4px;
  }
  .price {
    font-size: 1.6rem;
    font-weight: 700;
    margin: 8px 0 4px;
  }
  .period {
    margin: 0 0 16px;
    color: ${({ theme }) => theme.textMuted};
    font-size: 0.9rem;
  }
  ul {
    line-height: 2;
    padding-left: 1.2em;
  }
  .titles {
    font-size: 0.9rem;
    color: ${({ theme }) => theme.textMuted};
  }
`;

interface Props {
  plan: Plan;
  premiumTitles: PremiumTitle[];
  href: string;
  ctaLabel: string;
}

export function PlanCard({ plan, premiumTitles, href, ctaLabel }: Props) {
  return (
    <Box data-testid="plan" data-plan-id={plan.id}>
      <h2>{plan.name}</h2>
      <p className="price" data-testid="plan-price">
        {priceLabel(plan)}
      </p>
      <p className="period">{periodLabel(plan)}ごとの自動更新</p>
      <ul data-testid="plan-benefits">
        {PLAN_BENEFITS.map((b) => (
          <li key={b}>{b}</li>
        ))}
      </ul>
      {premiumTitles.length > 0 && (
        <p className="titles" data-testid="plan-premium-titles">
          プレミアム作品: {premiumTitles.map((t) => t.title).join('、')}
        </p>
      )}
      <LinkButton href={href} $variant="primary" $size="large" $block data-testid="plan-cta">
        {ctaLabel}
      </LinkButton>
    </Box>
  );
}
