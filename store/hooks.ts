/**
 * The store's React hooks, typed once (redux-templates' `app/hooks.ts`): use these instead of
 * plain useDispatch / useSelector. Selectors live beside their slices (./slices/*).
 */
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { AppDispatch, AppStore, RootState } from './index';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();
