import { LegalPage } from '@/components/legal/LegalPage';
import { privacy } from '@/content/legal/privacy';

export default function Page() {
  return <LegalPage doc={privacy} path="/privacy" />;
}
