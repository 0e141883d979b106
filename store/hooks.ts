import { useDispatch, useSelector, useStore } from 'react-redux';
import type { AppDispatch, AppStore, RootState } from './index';
import { authStateOf } from '@/lib/types/user';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();

export const selectUser = (s: RootState) => s.user.user;
export const selectAuthState = (s: RootState) => authStateOf(s.user.user);
