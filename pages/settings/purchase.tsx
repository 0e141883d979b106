/**
 * /settings/purchase (only verified; spec section 2, issue 9 §3.4): the user's plan and
 * payments. Valid (有効) only while the paid period is in the future — a past date reads as
 * expired with a way back to the plans (lib/purchase/status on top of lib/purchase/plan) — plus
 * the next renewal or end date, the card, change card, cancel / resume and the payment history
 * (components/purchase/PurchaseSettings).
 */
import { RoutePage } from '@/components/layout/RoutePage';
import { PurchaseLegalLinks } from '@/components/purchase/PurchaseLegalLinks';
import { PurchaseSettings } from '@/components/purchase/PurchaseSettings';
import { useAppSelector } from '@/store/hooks';
import { selectUser } from '@/store/slices/user';

export default function SettingsPurchase() {
  const user = useAppSelector(selectUser);
  return (
    <RoutePage title="プランとお支払い" path="/settings/purchase" narrow gated>
      <PurchaseSettings claim={user?.paymentExpirationTime} />
      <PurchaseLegalLinks />
    </RoutePage>
  );
}
