/**
 * Every line as text (issue 13): the transcript's rules (order, parts, resends, choices, clear) and the
 * play page's transcript as a player meets it — the live region, the backlog panel (key T, the
 * search, the copy, the choices as buttons sending the digit key), the captions and their size,
 * remembered. The stream is a stand-in PlayController that hands the page host messages.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/renderWithProviders';
import { loggedIn } from '@/store/slices/user';
import type { User } from '@/lib/types/user';
import type { HostMessage, TextMessage } from '@/lib/streaming/messages';
import { PlayerView } from '../PlayerView';
import { CAPTION_PREFS_KEY, loadCaptionPrefs } from './captionPrefs';
import { EMPTY_TRANSCRIPT, LIVE_LOG_SIZE, currentLine, transcriptReducer, type TranscriptState } from './transcriptState';
import { choiceKey } from './useTranscript';
import { testUser } from '@/lib/mylist/testFixtures';

// ---------------------------------------------------------------------------------------------
// the reducer

const line = (seq: number, text: string, o: { speaker?: string | null; part?: number; parts?: number; choice?: true } = {}): TextMessage => ({
  v: 1,
  type: 'line',
  seq,
  speaker: o.speaker ?? null,
  text,
  part: o.part ?? 0,
  parts: o.parts ?? 1,
  ...(o.choice ? { choice: o.choice } : {}),
});
const choices = (seq: number, items: string[]): TextMessage => ({ v: 1, type: 'choices', seq, choices: items });
const clear = (seq: number): TextMessage => ({ v: 1, type: 'clear', seq });
const fold = (msgs: TextMessage[], from: TranscriptState = EMPTY_TRANSCRIPT) => msgs.reduce((s, msg) => transcriptReducer(s, { type: 'message', msg }), from);

describe('transcriptReducer', () => {
  it('keeps lines in seq order, once each, whatever the order and the resends', () => {
    const s = fold([line(1, 'いち', { speaker: '灯' }), line(3, 'さん'), line(2, 'に'), line(3, 'さん'), line(1, 'いち', { speaker: '灯' })]);
    expect(s.lines.map((l) => l.text)).toEqual(['いち', 'に', 'さん']);
    expect(s.lines[0].speaker).toBe('灯');
    expect(s.latest).toBe(3);
  });

  it('joins a long line’s parts as they come, and announces it once complete', () => {
    let s = fold([line(5, '前半', { parts: 2, part: 0 })]);
    expect(s.lines[0]).toMatchObject({ text: '前半', complete: false });
    expect(s.live).toEqual([]);
    s = fold([line(5, '後半', { parts: 2, part: 1 }), line(5, '前半', { parts: 2, part: 0 })], s);
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toMatchObject({ text: '前半後半', complete: true });
    expect(s.live.map((e) => e.text)).toEqual(['前半後半']);
  });

  it('offers choices until a later line, ignores a stale or repeated choices, and clears on an empty one', () => {
    let s = fold([line(1, '行き先は？'), choices(2, ['駅へ行く', '家に帰る'])]);
    expect(s.choices).toEqual({ seq: 2, items: ['駅へ行く', '家に帰る'] });
    expect(s.live.at(-1)!.text).toBe('選択肢：1. 駅へ行く、2. 家に帰る');
    // the host's resend after a reconnect: nothing new
    expect(fold([line(1, '行き先は？'), choices(2, ['駅へ行く', '家に帰る'])], s)).toEqual(s);
    s = fold([line(3, '駅へ行く', { choice: true }), line(4, '駅に着いた。')], s);
    expect(s.choices).toBeNull();
    expect(s.lines.map((l) => l.choice)).toEqual([false, true, false]);
    // an old choices message (a resend that arrives late) does not bring them back
    expect(fold([choices(2, ['駅へ行く', '家に帰る'])], s).choices).toBeNull();
    s = fold([choices(5, ['a', 'b']), choices(6, [])], s);
    expect(s.choices).toBeNull();
  });

  it('keeps the live log short and the caption on the newest line', () => {
    const s = fold(Array.from({ length: 9 }, (_, i) => line(i + 1, `行${i + 1}`, { speaker: i % 2 ? '灯' : null })));
    expect(s.live).toHaveLength(LIVE_LOG_SIZE);
    expect(s.live.at(-1)!.text).toBe('行9');
    expect(s.live.at(-2)!.text).toBe('灯「行8」');
    expect(currentLine(s)!.text).toBe('行9');
    // a line the story already quotes is not quoted twice
    expect(fold([line(10, '「こんばんは」', { speaker: '灯' })], s).live.at(-1)!.text).toBe('灯 「こんばんは」');
    expect(transcriptReducer(s, { type: 'reset' })).toBe(EMPTY_TRANSCRIPT);
  });

  it('shows no current line after a clear, keeps every line read, and ignores a stale or repeated clear', () => {
    let s = fold([line(1, '行き先は？', { speaker: '灯' }), choices(2, ['駅へ行く', '家に帰る']), clear(3)]);
    expect(currentLine(s)).toBeNull();
    expect(s.choices).toBeNull();
    expect(s.lines.map((l) => l.text)).toEqual(['行き先は？']);
    // the host's resend after a reconnect, and a line or choices older than the clear: still none
    expect(fold([clear(3), line(1, '行き先は？', { speaker: '灯' }), choices(2, ['駅へ行く'])], s)).toEqual(s);
    // the next play's first line is the caption again
    s = fold([line(4, 'はじめから。')], s);
    expect(currentLine(s)!.text).toBe('はじめから。');
    expect(s.lines).toHaveLength(2);
    // a clear older than the newest text (a late resend) is stale
    expect(currentLine(fold([clear(3)], s))!.text).toBe('はじめから。');
    // a line that came before the clear but arrives after it is kept, not shown
    s = fold([line(6, '終わり。'), clear(7), line(5, '遅れた行')], s);
    expect(s.lines.map((l) => l.seq)).toEqual([1, 4, 5, 6]);
    expect(currentLine(s)).toBeNull();
  });

  it('maps a choice to the digit key the keyboard sends', () => {
    expect([0, 1, 8].map(choiceKey)).toEqual(['1', '2', '9']);
    expect(choiceKey(9)).toBeNull();
    expect(choiceKey(-1)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// the play page

const sent: unknown[] = [];
let deliver: (m: HostMessage) => void = () => undefined;
jest.mock('next/router', () => ({ useRouter: () => ({ push: jest.fn(), asPath: '/play/hajimari-no-eki' }) }));
jest.mock('@/lib/session/playController', () => ({
  PlayController: class {
    constructor(
      readonly gameId: string,
      private readonly cb: { onChange(s: unknown): void; onHostMessage?(m: HostMessage): void },
    ) {}
    async run() {
      deliver = (m) => this.cb.onHostMessage?.(m);
      this.cb.onChange({ step: 'playing', sessionId: '11111111-2222-4333-8444-555555555555', queuePosition: null, stream: null, connection: 'connected', reconnecting: false, idleSecondsLeft: null, failure: null, rttMs: null });
    }
    send(m: unknown) {
      sent.push(m);
      return true;
    }
    sendBeacon() {}
    dispose() {}
    setHidden() {}
  },
}));

const member: User = testUser({ name: '読者', uid: 'u-1', email: 'reader@example.com' });

async function playing() {
  const { store } = renderWithProviders(<PlayerView gameId="hajimari-no-eki" title="はじまりの駅" />);
  await act(async () => {
    store.dispatch(loggedIn(member));
  });
  await screen.findByTestId('input-layer');
  const host = (...msgs: TextMessage[]) => act(() => msgs.forEach((m) => deliver(m)));
  return { user: userEvent.setup(), host };
}

beforeEach(() => {
  sent.length = 0;
  localStorage.clear();
});

describe('the play page’s transcript', () => {
  it('reads each new line in a polite live region, without opening anything', async () => {
    const { host } = await playing();
    const live = screen.getByRole('log', { name: 'ゲームのテキスト' });
    expect(live).toHaveAttribute('aria-live', 'polite');
    host(line(1, '今夜は星が見えるね。', { speaker: '灯' }));
    await waitFor(() => expect(live).toHaveTextContent('灯「今夜は星が見えるね。」'));
    host(line(2, '改札を抜けた。'));
    await waitFor(() => expect(within(live).getAllByRole('paragraph').map((p) => p.textContent)).toEqual(['灯「今夜は星が見えるね。」', '改札を抜けた。']));
    expect(screen.queryByTestId('transcript-panel')).toBeNull();
  });

  it('announces a burst of lines (skip mode) as its newest line only, once it settles', async () => {
    const { host } = await playing();
    const live = screen.getByRole('log', { name: 'ゲームのテキスト' });
    host(line(1, '一行目。'), line(2, '二行目。'), line(3, '三行目。'), line(4, '四行目。'));
    await waitFor(() => expect(live).toHaveTextContent('四行目。'));
    expect(within(live).getAllByRole('paragraph').map((p) => p.textContent)).toEqual(['四行目。']);
  });

  it('opens the backlog with T (not sent to the game), lists, searches and closes with Escape', async () => {
    const { user, host } = await playing();
    host(line(1, '今夜は星が見えるね。', { speaker: '灯' }), line(2, '改札を抜けた。'), line(3, 'ホシを数えよう。', { speaker: '灯' }));
    screen.getByRole('application', { name: 'ゲーム画面' }).focus();
    await user.keyboard('t');
    const panel = screen.getByRole('dialog', { name: 'テキスト履歴' });
    expect(sent).toEqual([]);
    expect(panel).not.toHaveAttribute('aria-modal', 'true');
    expect(document.activeElement).toHaveTextContent('テキスト履歴');
    const list = within(panel).getByRole('list', { name: 'これまでのテキスト' });
    expect(list).toHaveAttribute('lang', 'ja');
    expect(list).toHaveAttribute('translate', 'yes');
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['灯今夜は星が見えるね。', '改札を抜けた。', '灯ホシを数えよう。']);
    // search is Japanese-aware: ほし finds ホシ (katakana folded to hiragana)
    await user.type(within(panel).getByRole('searchbox', { name: 'テキストを検索' }), 'ほし');
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['灯ホシを数えよう。']);
    expect(within(panel).getByRole('status')).toHaveTextContent('1件見つかりました');
    // keys typed in the panel stay on the page
    expect(sent).toEqual([]);
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('transcript-panel')).toBeNull();
    expect(document.activeElement).toHaveAccessibleName('ゲーム画面');
    expect(screen.getByTestId('transcript-toggle')).toHaveAttribute('aria-expanded', 'false');
  });

  it('offers the choices as buttons that send the same key as the keyboard, and drops them after the next line', async () => {
    const { user, host } = await playing();
    host(line(1, 'どうする？'), choices(2, ['駅へ行く', '家に帰る']));
    await user.click(screen.getByRole('button', { name: /テキスト履歴/ }));
    const group = screen.getByRole('region', { name: '選択肢' });
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['1. 駅へ行く', '2. 家に帰る']);
    await user.click(buttons[1]);
    expect(sent).toEqual([
      { type: 'key', kind: 'down', key: '2' },
      { type: 'key', kind: 'up', key: '2' },
    ]);
    host(line(3, '家に帰る', { choice: true }), line(4, '家に着いた。'));
    expect(screen.queryByRole('region', { name: '選択肢' })).toBeNull();
    expect(screen.getByTestId('transcript-lines')).toHaveTextContent('▶ 家に帰る');
  });

  it('copies the lines as plain text', async () => {
    const { user, host } = await playing();
    const writeText = jest.fn().mockResolvedValue(undefined);
    host(line(1, 'こんばんは。', { speaker: '灯' }), line(2, '風が吹いた。'));
    await user.click(screen.getByTestId('transcript-toggle'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'コピー' }));
    expect(writeText).toHaveBeenCalledWith('灯「こんばんは。」\n風が吹いた。');
    expect(screen.getByRole('button', { name: 'コピーしました' })).toBeInTheDocument();
  });

  it('shows captions under the video at the size picked, and remembers both', async () => {
    const { user, host } = await playing();
    host(line(1, 'こんばんは。', { speaker: '灯' }));
    expect(screen.queryByTestId('captions')).toBeNull();
    await user.click(screen.getByTestId('transcript-toggle'));
    await user.click(screen.getByRole('checkbox', { name: '字幕を映像の下に表示' }));
    const captions = screen.getByTestId('captions');
    expect(captions).toHaveTextContent('灯こんばんは。');
    expect(captions).toHaveAttribute('data-size', 'medium');
    await user.click(within(screen.getByRole('group', { name: '字幕の大きさ' })).getByRole('radio', { name: '大' }));
    expect(screen.getByTestId('captions')).toHaveAttribute('data-size', 'large');
    expect(JSON.parse(localStorage.getItem(CAPTION_PREFS_KEY)!)).toEqual({ on: true, size: 'large' });
    host(line(2, '風が吹いた。'));
    expect(screen.getByTestId('captions')).toHaveTextContent('風が吹いた。');
    expect(screen.getByTestId('captions')).not.toHaveTextContent('こんばんは');
  });

  it('shows nothing in the captions once the game is back on its title, keeping the backlog, until the next line', async () => {
    const { user, host } = await playing();
    host(line(1, 'こんばんは。', { speaker: '灯' }), line(2, 'おわり。'), choices(3, ['もう一度', 'やめる']));
    await user.click(screen.getByTestId('transcript-toggle'));
    await user.click(screen.getByRole('checkbox', { name: '字幕を映像の下に表示' }));
    expect(screen.getByTestId('captions')).toHaveTextContent('おわり。');
    expect(screen.getByRole('region', { name: '選択肢' })).toBeInTheDocument();
    host(clear(4));
    expect(screen.getByTestId('captions')).toBeInTheDocument();
    expect(screen.getByTestId('captions')).toHaveTextContent(/^$/);
    expect(screen.queryByRole('region', { name: '選択肢' })).toBeNull();
    expect(within(screen.getByTestId('transcript-lines')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['灯こんばんは。', 'おわり。']);
    // a resend of the old line (a reconnect) does not bring it back
    host(line(2, 'おわり。'));
    expect(screen.getByTestId('captions')).toHaveTextContent(/^$/);
    host(line(5, 'はじめから。'));
    expect(screen.getByTestId('captions')).toHaveTextContent('はじめから。');
  });

  it('reads remembered caption settings, and the defaults for anything corrupt', () => {
    localStorage.setItem(CAPTION_PREFS_KEY, JSON.stringify({ on: true, size: 'small' }));
    expect(loadCaptionPrefs()).toEqual({ on: true, size: 'small' });
    localStorage.setItem(CAPTION_PREFS_KEY, JSON.stringify({ on: 'yes', size: 'huge' }));
    expect(loadCaptionPrefs()).toEqual({ on: false, size: 'medium' });
    localStorage.setItem(CAPTION_PREFS_KEY, '{broken');
    expect(loadCaptionPrefs()).toEqual({ on: false, size: 'medium' });
  });
});
