import type { ModalProps } from '@/store/slices/modal';

export interface ModalBodyProps extends ModalProps {
  onClose: () => void;
}
