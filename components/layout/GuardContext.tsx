import { createContext, useContext, type ReactNode } from 'react';
import type { GuardDecision } from '@/lib/routes/guard';
import { useAppSelector } from '@/store/hooks';
import { LoadingBlock } from '@/components/ui/Spinner';

export const GuardContext = createContext<GuardDecision>({ kind: 'wait' });

/**
 * Wraps the part of a page that needs the guard's answer (and, for pages that use the user,
 * the first auth report): until then it shows the loading gate under the page's heading,
 * which itself renders on the server.
 */
export function AuthGate({ children, needsUser = true }: { children: ReactNode; needsUser?: boolean }) {
  const decision = useContext(GuardContext);
  const authReady = useAppSelector((s) => s.user.authReady);
  if (decision.kind !== 'allow' || (needsUser && !authReady)) return <LoadingBlock />;
  return <>{children}</>;
}
