/**
 * The toast slice (spec section 3): the stack of toasts on screen, its one action
 * (TOAST.STACK_UPDATE) and the pure helpers that build a new stack. The thunks that push and
 * remove a toast are beside it, in ./toastThunks.ts.
 */
import { createAction, type UnknownAction } from '@reduxjs/toolkit';

/** A toast's kind; its look and icon live in components/toast. */
export type ToastNode = 'info' | 'success' | 'error';

export interface ToastProps {
  message: string;
  /** Milliseconds before it leaves by itself; 0 keeps it until closed. */
  durationMs?: number;
}

export interface ToastEntry {
  node: ToastNode;
  key: string;
  props: ToastProps;
}

export interface ToastState {
  stack: ToastEntry[];
}

export const initialToastState: ToastState = { stack: [] };

/** The spec has one toast action: it replaces the whole stack. Helpers below build the new stack. */
export const updateToastStack = createAction<ToastEntry[]>('TOAST.STACK_UPDATE');

export function toastReducer(state: ToastState = initialToastState, action: UnknownAction): ToastState {
  if (updateToastStack.match(action)) return { ...state, stack: action.payload };
  return state;
}

let toastCounter = 0;
export function nextToastKey(): string {
  toastCounter += 1;
  return `toast-${Date.now().toString(36)}-${toastCounter}`;
}

export function withToast(stack: ToastEntry[], entry: ToastEntry): ToastEntry[] {
  return [...stack, entry];
}

export function withoutToast(stack: ToastEntry[], key: string): ToastEntry[] {
  return stack.filter((t) => t.key !== key);
}
