import { useRouter } from 'next/router';
import { useState } from 'react';
import styled from 'styled-components';
import { pushToast } from '@/store/slices/toastThunks';
import { Button, buttonStyle, type ButtonStyleProps } from '@/components/ui/Button';
import { deleteScreenshot, type Screenshot } from '@/lib/api/mylist';
import { screenshotFileName, shareScreenshot } from '@/lib/mylist/share';
import { errorMessage } from '@/lib/api/client';
import { useAppDispatch } from '@/store/hooks';

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin: 16px 0;
`;

const Download = styled.a<ButtonStyleProps>`
  ${buttonStyle}
  &[aria-disabled='true'] {
    opacity: 0.5;
    pointer-events: none;
  }
`;

const Confirm = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 12px;
  padding: 12px 16px;
  border: 1px solid ${({ theme }) => theme.destructive};
  border-radius: 8px;
  p {
    margin: 0;
    flex: 1 1 200px;
  }
`;

export const GALLERY_PATH = '/mylist/screenshot';

interface Props {
  shot: Screenshot;
  title: string;
  url: string | null;
  blob: Blob | null;
}

/** Download, share and delete (asked first, then back to the gallery with a toast). */
export function ScreenshotActions({ shot, title, url, blob }: Props) {
  const router = useRouter();
  const dispatch = useAppDispatch();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const remove = () => {
    setDeleting(true);
    deleteScreenshot(shot.id)
      .then(async () => {
        dispatch(pushToast('success', { message: 'スクリーンショットを削除しました。' }));
        await router.push(GALLERY_PATH);
      })
      .catch((e: unknown) => {
        setDeleting(false);
        dispatch(pushToast('error', { message: errorMessage(e, 'スクリーンショットを削除できませんでした。もう一度お試しください。') }));
      });
  };

  const share = () => {
    if (!blob) return;
    shareScreenshot({ blob, gameId: shot.gameId, title, createdAt: shot.createdAt }).catch(() =>
      dispatch(pushToast('error', { message: '共有できませんでした。もう一度お試しください。' })),
    );
  };

  return (
    <>
      <Bar>
        <Download
          href={url ?? undefined}
          download={screenshotFileName(shot.gameId, shot.createdAt)}
          aria-disabled={!url}
          $variant="primary"
          data-testid="screenshot-download"
        >
          ダウンロード
        </Download>
        <Button onClick={share} disabled={!blob} data-testid="screenshot-share">
          Xでシェア
        </Button>
        <Button $variant="destructive" onClick={() => setConfirming(true)} disabled={confirming || deleting} data-testid="screenshot-delete">
          削除
        </Button>
      </Bar>
      {confirming && (
        <Confirm role="alertdialog" aria-labelledby="delete-confirm-text" data-testid="delete-confirm">
          <p id="delete-confirm-text">このスクリーンショットを削除しますか？削除すると元に戻せません。</p>
          <Button $variant="destructive" onClick={remove} disabled={deleting} aria-busy={deleting} data-testid="delete-confirm-yes">
            削除する
          </Button>
          <Button onClick={() => setConfirming(false)} disabled={deleting}>
            キャンセル
          </Button>
        </Confirm>
      )}
    </>
  );
}
