import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';

export const Center = styled.div`
  position: absolute;
  inset: 0;
  z-index: 30;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
  background: rgba(0, 0, 0, 0.6);
  color: #fff;
  text-align: center;
`;

const Card = styled.div`
  max-width: 380px;
  padding: 22px;
  border-radius: 14px;
  background: rgba(20, 20, 26, 0.95);
  p {
    line-height: 1.8;
  }
  strong {
    font-size: 2rem;
  }
`;

/** DESIGN §4: a warning after 3 minutes without input, closed 30 s later unless the player acts. */
export function IdleWarning({ secondsLeft, onContinue }: { secondsLeft: number; onContinue(): void }) {
  return (
    <Center data-testid="idle-warning" onPointerDown={(e) => e.stopPropagation()}>
      <Card>
        <p>しばらく操作がありません。このままだと自動的にプレイを終了します。</p>
        <strong>{secondsLeft}</strong>
        <p>秒後に終了</p>
        <Button $variant="primary" $block onClick={onContinue} data-testid="idle-continue">
          プレイを続ける
        </Button>
      </Card>
    </Center>
  );
}

export function Reconnecting() {
  return (
    <Center data-testid="reconnecting">
      <Card>
        <Spinner size="large" label="再接続中" />
        <p>通信が途切れました。再接続しています…</p>
      </Card>
    </Center>
  );
}

const TUTORIALS = {
  touch: {
    title: 'タップで操作できます',
    body: '画面をタップすると文章が進み、選択肢もタップで選べます。右上の「タッチ操作」で、指でカーソルを動かすタッチパッド操作に切り替えられます。',
  },
  knob: {
    title: 'タッチパッド操作',
    body: '画面をなぞるとカーソルが動きます。丸いボタン（ノブ）をタップするとクリック、長押ししながらドラッグするとノブの位置を動かせます。',
  },
} as const;

/** The tutorials, shown once each (their "seen" bits are the player config's guidance). */
export function Tutorial({ kind, onDone }: { kind: keyof typeof TUTORIALS; onDone(): void }) {
  const t = TUTORIALS[kind];
  return (
    <Center data-testid={`tutorial-${kind}`} onPointerDown={(e) => e.stopPropagation()}>
      <Card>
        <h2>{t.title}</h2>
        <p>{t.body}</p>
        <Button $variant="primary" $block onClick={onDone}>
          OK
        </Button>
      </Card>
    </Center>
  );
}
