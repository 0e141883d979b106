/** Fixtures of the my-list unit tests (users, titles, store states). Not imported by the app. */
import type { TitleWire } from '@/lib/api-types/schemas/catalog';
import { toGameSummary, type GameSummary } from '@/lib/types/game';
import type { User } from '@/lib/types/user';
import type { RootState } from '@/store';
import { initialUserState } from '@/store/slices/user';
import type { StoredPlayHistory } from './playHistory';

export function testUser(over: Partial<User> = {}): User {
  return {
    name: 'ゆめ',
    photoUrl: '/default-avatar.png',
    uid: 'u1',
    email: 'yume@example.com',
    emailVerified: true,
    paymentExpirationTime: null,
    signInMethods: ['password'],
    canTwitterLoggedIn: false,
    createdAt: 1_700_000_000,
    isAnonymous: false,
    ...over,
  };
}

export function titleWire(id: string, over: Partial<TitleWire> = {}): TitleWire {
  return {
    id,
    title: `タイトル${id}`,
    reading: 'たいとる',
    brand_id: 'b1',
    brand: 'ブランド',
    description: '説明',
    tags: [],
    genres: [],
    release_date: '2024-01-01',
    age_rating: 'all',
    key_art: `/games/${id}/keyart.png`,
    plays: 0,
    premium: false,
    ...over,
  };
}

export const gameSummary = (id: string): GameSummary => toGameSummary(titleWire(id));

/** A store state with this user (undefined: before the first auth report) and history. */
export function userState(user: User | null | undefined, playHistories: StoredPlayHistory[] = []): Partial<RootState> {
  return { user: { ...initialUserState, user, authReady: user !== undefined, playHistories } };
}

export function history(gameId: string, over: Partial<StoredPlayHistory> = {}): StoredPlayHistory {
  return {
    gameId,
    title: `タイトル${gameId}`,
    lastPlayedAt: Date.UTC(2025, 2, 4, 0, 5),
    totalSeconds: 83 * 60 + 20,
    game: gameSummary(gameId),
    playCount: 3,
    ...over,
  };
}
