import Link from 'next/link';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { buttonStyle, type ButtonStyleProps } from '@/components/ui/Button';

const Plan = styled.div`
  padding: 24px;
  border-radius: 16px;
  border: 2px solid ${({ theme }) => theme.primary};
  background: ${({ theme }) => theme.surface};
  h2 {
    margin: 0 0 4px;
  }
  .price {
    font-size: 1.6rem;
    font-weight: 700;
    margin: 8px 0 16px;
  }
  ul {
    line-height: 2;
    padding-left: 1.2em;
  }
`;

const Cta = styled(Link)<ButtonStyleProps>`
  ${buttonStyle}
`;

export const PREMIUM_MONTHLY_PRICE_JPY = 980;

export default function Upgrade() {
  return (
    <RoutePage title="プレミアムプラン" path="/upgrade" description="ユメキャストのプレミアムプランなら、すべてのタイトルが遊び放題。">
      <Plan>
        <h2>プレミアムプラン</h2>
        <p className="price">月額 {PREMIUM_MONTHLY_PRICE_JPY.toLocaleString('ja-JP')}円（税込）</p>
        <ul>
          <li>配信中のすべてのタイトルが遊び放題</li>
          <li>高画質モードでのプレイ</li>
          <li>スクリーンショットの保存枚数が無制限</li>
          <li>いつでも解約できます（次回更新日まではご利用いただけます）</li>
        </ul>
        <Cta href="/signup/purchase" $variant="primary" $size="large" $block>
          プレミアムプランに登録する
        </Cta>
      </Plan>
    </RoutePage>
  );
}
