import type { ComponentType } from 'react';
import type { ModalNode } from '@/store/slices/modal';
import type { ModalBodyProps } from './types';
import { LoginModal } from './LoginModal';
import { MessageModal, RouteBlockedModal, SettingsWideModal } from './NoticeModals';

/** Every modal the store can name. */
export const MODAL_REGISTRY: Record<ModalNode, ComponentType<ModalBodyProps>> = {
  login: LoginModal,
  routeBlocked: RouteBlockedModal,
  settingsWide: SettingsWideModal,
  message: MessageModal,
};
