/**
 * /purchase/register-card (only verified; spec section 2, issue 9 §3.3): the card form of the
 * payment processor, the final confirmation, 3-D Secure when the card asks for it, then the
 * subscription starts and the page says what the user now has. The chosen plan comes along as
 * `?plan=<id>`; the work is components/purchase/CardPurchase.
 */
import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { useQueryReady } from '@/components/layout/useQueryReady';
import { CardPurchase } from '@/components/purchase/CardPurchase';
import { PurchaseLegalLinks } from '@/components/purchase/PurchaseLegalLinks';
import { planIdFrom } from '@/lib/purchase/paths';

export default function RegisterCard() {
  const router = useRouter();
  const queryReady = useQueryReady();
  return (
    <RoutePage title="お支払い方法の登録" path="/purchase/register-card" narrow gated>
      {queryReady && <CardPurchase planId={planIdFrom(router.query.plan)} />}
      <PurchaseLegalLinks />
    </RoutePage>
  );
}
