/**
 * The toast thunks (redux-templates: thunks beside their slice): push a toast, remove one. They
 * read the current stack and dispatch the slice's one action with the new stack. A file of their
 * own, because AppThunk's type comes from the root store, which imports the slice itself.
 */
import type { AppThunk } from '../index';
import { nextToastKey, updateToastStack, withToast, withoutToast, type ToastNode, type ToastProps } from './toast';

/** Adds a toast: builds the new stack and dispatches TOAST.STACK_UPDATE. */
export function pushToast(node: ToastNode, props: ToastProps): AppThunk {
  return (dispatch, getState) => {
    dispatch(updateToastStack(withToast(getState().toast.stack, { node, key: nextToastKey(), props })));
  };
}

/** Removes the toast with this key (a no-op when it is already gone). */
export function removeToast(key: string): AppThunk {
  return (dispatch, getState) => {
    dispatch(updateToastStack(withoutToast(getState().toast.stack, key)));
  };
}
