import { LegalPage } from '@/components/legal/LegalPage';
import { terms } from '@/content/legal/terms';

export default function Page() {
  return <LegalPage doc={terms} path="/terms" />;
}
