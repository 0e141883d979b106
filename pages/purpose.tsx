import { LegalPage } from '@/components/legal/LegalPage';
import { purpose } from '@/content/legal/purpose';

export default function Page() {
  return <LegalPage doc={purpose} path="/purpose" />;
}
