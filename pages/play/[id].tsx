import type { GetServerSideProps } from 'next';
import dynamic from 'next/dynamic';
import { PageHead } from '@/components/seo/PageHead';
import { AuthGate } from '@/components/layout/GuardContext';
import { fetchTitle } from '@/lib/api/catalog';
import { FailurePanel } from '@/components/play/FailurePanel';
import { Center } from '@/components/play/Overlays';

// The player touches WebRTC and media APIs: it only ever renders in the browser.
const PlayerView = dynamic(() => import('@/components/play/PlayerView').then((m) => m.PlayerView), { ssr: false });

interface Props {
  id: string;
  game: { id: string; title: string; description: string; keyArt: string } | null;
}

export const getServerSideProps: GetServerSideProps<Props> = async ({ params, res }) => {
  const id = typeof params?.id === 'string' ? params.id : '';
  const meta = id ? ((await fetchTitle(id))?.title ?? null) : null;
  if (!meta) res.statusCode = 404;
  return { props: { id, game: meta ? { id: meta.id, title: meta.title, description: meta.description, keyArt: meta.keyArt } : null } };
};

export default function Play({ id, game }: Props) {
  return (
    <>
      <PageHead game={game ?? undefined} title={game ? undefined : 'タイトルが見つかりません'} />
      <h1 style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{game ? `${game.title}をプレイ` : 'タイトルが見つかりません'}</h1>
      {game ? (
        <AuthGate>
          <PlayerView gameId={game.id} title={game.title} />
        </AuthGate>
      ) : (
        <Center style={{ position: 'fixed', background: '#000' }}>
          <FailurePanel failure="game_not_found" gameId={id} onRetry={() => undefined} />
        </Center>
      )}
    </>
  );
}
