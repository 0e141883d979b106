import type { ReactNode } from 'react';
import { PageHead } from '@/components/seo/PageHead';
import { PageFrame } from '@/components/ui/Page';
import { AuthGate } from './GuardContext';

interface RoutePageProps {
  title: string;
  path: string;
  description?: string;
  narrow?: boolean;
  /** Content waits for the guard and the first auth report (guarded or user-specific pages). */
  gated?: boolean;
  children?: ReactNode;
}

/** The usual page: head, heading, and the content (behind the loading gate when gated). */
export function RoutePage({ title, path, description, narrow, gated, children }: RoutePageProps) {
  return (
    <>
      <PageHead title={title} description={description} path={path} />
      <PageFrame title={title} narrow={narrow}>
        {gated ? <AuthGate>{children}</AuthGate> : children}
      </PageFrame>
    </>
  );
}
