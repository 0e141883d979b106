/** What the modal layer hands every modal body (components/modal/registry.tsx). */
import type { ModalProps } from '@/store/slices/modal';

export interface ModalBodyProps extends ModalProps {
  onClose: () => void;
  /** The id the body's heading carries: the dialog is named by it (aria-labelledby). */
  titleId?: string;
}
