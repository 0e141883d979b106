import type { AppDispatch, RootState } from '@/store';
import { nextToastKey, updateToastStack, withToast, withoutToast, type ToastNode, type ToastProps } from '@/store/slices/toast';

type Thunk = (dispatch: AppDispatch, getState: () => RootState) => void;

/** Adds a toast: builds the new stack and dispatches TOAST.STACK_UPDATE. */
export function pushToast(node: ToastNode, props: ToastProps): Thunk {
  return (dispatch, getState) => {
    dispatch(updateToastStack(withToast(getState().toast.stack, { node, key: nextToastKey(), props })));
  };
}

export function removeToast(key: string): Thunk {
  return (dispatch, getState) => {
    dispatch(updateToastStack(withoutToast(getState().toast.stack, key)));
  };
}
