/**
 * Every modal the store can name, and the component that renders its body. The login modal is
 * loaded when it is first opened (next/dynamic): it brings Firebase Auth, which public pages do
 * not load in their first paint (issue 12, lib/auth/loader.ts).
 */
import type { ComponentType } from 'react';
import dynamic from 'next/dynamic';
import type { ModalNode } from '@/store/slices/modal';
import type { ModalBodyProps } from './types';
import { MessageModal, RouteBlockedModal, SettingsWideModal } from './NoticeModals';

const LoginModal = dynamic(() => import('./LoginModal').then((m) => m.LoginModal), {
  ssr: false,
  loading: () => <p role="status">読み込み中…</p>,
});

export const MODAL_REGISTRY: Record<ModalNode, ComponentType<ModalBodyProps>> = {
  login: LoginModal,
  routeBlocked: RouteBlockedModal,
  settingsWide: SettingsWideModal,
  message: MessageModal,
};
