/**
 * Modal state of spec section 3: `node` and `props`, empty when closed.
 * `node` names a modal registered in components/modal/registry.tsx, so the store
 * stays serialisable (a React element would not be).
 */
import { createAction, type UnknownAction } from '@reduxjs/toolkit';

export type ModalNode = 'login' | 'routeBlocked' | 'settingsWide' | 'message';

export interface ModalProps {
  /** Route the user tried to open (routeBlocked). */
  href?: string;
  title?: string;
  message?: string;
}

export interface ModalState {
  node: ModalNode | null;
  props: ModalProps;
}

export const initialModalState: ModalState = { node: null, props: {} };

export const displayModal = createAction<{ node: ModalNode; props?: ModalProps }>('MODAL.DISPLAY');
export const hideModal = createAction('MODAL.HIDE');

export function modalReducer(state: ModalState = initialModalState, action: UnknownAction): ModalState {
  if (displayModal.match(action)) return { node: action.payload.node, props: action.payload.props ?? {} };
  if (hideModal.match(action)) return initialModalState;
  return state;
}
