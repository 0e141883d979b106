/**
 * /tokushoho (open): 特定商取引法に基づく表記, required for a paid service in Japan (issue 9 §3);
 * linked from the footer beside the terms and privacy policy, and from every purchase page.
 */
import { LegalPage } from '@/components/legal/LegalPage';
import { tokushoho } from '@/content/legal/tokushoho';
import { TOKUSHOHO_PATH } from '@/lib/purchase/paths';

export default function Page() {
  return <LegalPage doc={tokushoho} path={TOKUSHOHO_PATH} />;
}
