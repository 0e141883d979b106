/**
 * The backlog panel of the play page (issue 13): every line of the session as real page text —
 * selectable and copyable, searchable, in the page's language (`lang="ja"`, `translate="yes"`)
 * so the browser's translator reads it — the choices on offer as real buttons (each sends the
 * key the game takes for it: ./useTranscript.ts choiceKey), and the caption settings. A non-modal
 * dialog beside the picture: the game goes on, keys inside it stay on the page (InputLayer
 * leaves keys in a dialog alone), Escape or the close button closes it and focus goes back.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { normalizeForSearch } from '@/lib/search/normalize';
import { CAPTION_SIZES, CAPTION_SIZE_LABELS } from './captionPrefs';
import { spoken, type TranscriptLine } from './transcriptState';
import type { Transcript } from './useTranscript';
import { LineText } from './LineText';

const Panel = styled.div`
  position: absolute;
  top: 52px;
  right: 8px;
  bottom: 8px;
  z-index: 30;
  display: flex;
  flex-direction: column;
  gap: 8px;
  width: min(420px, calc(100% - 16px));
  padding: 12px;
  border-radius: 12px;
  background: rgba(16, 16, 24, 0.94);
  color: #fff;
  font-size: 0.95rem;
  user-select: text;
  cursor: auto;
  h2 {
    margin: 0;
    font-size: 1rem;
  }
  h3 {
    margin: 0 0 4px;
    font-size: 0.9rem;
  }
  button,
  input[type='search'] {
    font: inherit;
    font-size: 0.85rem;
    color: #fff;
    background: rgba(255, 255, 255, 0.12);
    border: 1px solid rgba(255, 255, 255, 0.35);
    border-radius: 8px;
    padding: 6px 10px;
  }
  button {
    cursor: pointer;
  }
  label {
    font-size: 0.85rem;
  }
  fieldset {
    margin: 0;
    padding: 6px 8px;
    border: 1px solid rgba(255, 255, 255, 0.3);
    border-radius: 8px;
    display: flex;
    flex-wrap: wrap;
    gap: 4px 12px;
    align-items: center;
    font-size: 0.85rem;
  }
`;

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  justify-content: space-between;
`;

const Lines = styled.ol`
  flex: 1;
  min-height: 0;
  overflow-y: auto;
  margin: 0;
  padding: 0 4px 0 0;
  list-style: none;
  line-height: 1.7;
  li {
    padding: 4px 0;
    border-bottom: 1px solid rgba(255, 255, 255, 0.1);
    overflow-wrap: anywhere;
  }
  .speaker {
    display: block;
    font-weight: bold;
    color: #ffd6e4;
  }
  .choice {
    color: #b9e3ff;
  }
`;

const Choices = styled.ul`
  display: flex;
  flex-direction: column;
  gap: 6px;
  margin: 0;
  padding: 0;
  list-style: none;
  button {
    width: 100%;
    text-align: left;
    background: rgba(255, 92, 138, 0.35);
  }
`;

interface Props {
  transcript: Transcript;
  /** The n-th choice on offer (0-based) was picked: PlayerView sends its key (useTranscript choiceKey). */
  onChoose(n: number): void;
}

function matches(line: TranscriptLine, terms: string[]): boolean {
  if (!terms.length) return true;
  const hay = normalizeForSearch(`${line.speaker ?? ''} ${line.text}`);
  return terms.every((t) => hay.includes(t));
}

/** The session's lines, searchable and copyable, with the choices on offer as buttons. */
export function TranscriptPanel({ transcript: t, onChoose }: Props) {
  const titleId = useId();
  const listRef = useRef<HTMLOListElement | null>(null);
  const headingRef = useRef<HTMLHeadingElement | null>(null);
  const [query, setQuery] = useState('');
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  // The offer (its seq) a choice was picked from: its buttons stay disabled until a new offer, so
  // a double click cannot pick again from the next choices.
  const [pickedFrom, setPickedFrom] = useState<number | null>(null);
  const terms = useMemo(() => normalizeForSearch(query).split(' ').filter(Boolean), [query]);
  const shown = useMemo(() => t.state.lines.filter((l) => matches(l, terms)), [t.state.lines, terms]);
  const choices = t.state.choices;

  // Opening moves focus into the panel (its title); closing gives it back where it was.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    headingRef.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);
  // New lines (and the later parts of a long one) scroll into view unless the player is searching
  // or has scrolled up to read. Keyed by the newest line, not the count: the count stops at the cap.
  const atEnd = useRef(true);
  const newest = shown[shown.length - 1];
  useEffect(() => {
    const el = listRef.current;
    if (el && atEnd.current && !terms.length) el.scrollTop = el.scrollHeight;
  }, [newest?.seq, newest?.text.length, terms.length]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      t.close();
    }
  };
  const copy = async () => {
    const text = shown.map((l) => spoken(l)).join('\n');
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  const choose = (seq: number, n: number) => {
    setPickedFrom(seq);
    // The picked button goes away when the chosen line arrives: keep the focus in the panel.
    listRef.current?.focus();
    onChoose(n);
  };

  return (
    <Panel
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      id="transcript-panel"
      data-testid="transcript-panel"
      onKeyDown={onKeyDown}
      onPointerDown={(e) => e.stopPropagation()}
    >
      <Row>
        <h2 id={titleId} ref={headingRef} tabIndex={-1}>
          テキスト履歴
        </h2>
        <button type="button" onClick={t.close} data-testid="transcript-close">
          閉じる
        </button>
      </Row>
      <Row>
        <input
          type="search"
          aria-label="テキストを検索"
          placeholder="検索"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="transcript-search"
          style={{ flex: 1 }}
        />
        <button type="button" onClick={() => void copy()} data-testid="transcript-copy">
          {copied === 'yes' ? 'コピーしました' : copied === 'failed' ? 'コピーできませんでした' : 'コピー'}
        </button>
      </Row>
      {/* Only the search's result is announced; the line count would be read after every line. */}
      <p role="status" style={{ margin: 0, fontSize: '0.8rem' }}>
        {terms.length ? `${shown.length}件見つかりました` : ''}
      </p>
      {!terms.length && <p style={{ margin: 0, fontSize: '0.8rem' }}>{`${t.state.lines.length}行`}</p>}
      <Lines
        ref={listRef}
        lang="ja"
        translate="yes"
        aria-label="これまでのテキスト"
        tabIndex={0}
        data-testid="transcript-lines"
        onScroll={(e) => {
          const el = e.currentTarget;
          atEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
        }}
      >
        {shown.map((l) => (
          <li key={l.seq} data-seq={l.seq} className={l.choice ? 'choice' : undefined}>
            <LineText line={l} />
          </li>
        ))}
        {terms.length > 0 && shown.length === 0 && <li>見つかりません</li>}
      </Lines>
      {choices && (
        <section aria-labelledby={`${titleId}-choices`} lang="ja" translate="yes">
          <h3 id={`${titleId}-choices`}>選択肢</h3>
          <Choices data-testid="transcript-choices">
            {choices.items.map((c, n) => (
              <li key={`${choices.seq}-${n}`}>
                <button type="button" onClick={() => choose(choices.seq, n)} disabled={pickedFrom === choices.seq} data-testid="transcript-choice">
                  {n + 1}. {c}
                </button>
              </li>
            ))}
          </Choices>
        </section>
      )}
      <Row>
        <label>
          <input type="checkbox" checked={t.captions.on} onChange={(e) => t.updateCaptions({ on: e.target.checked })} data-testid="captions-on" /> 字幕を映像の下に表示
        </label>
      </Row>
      <fieldset>
        <legend>字幕の大きさ</legend>
        {CAPTION_SIZES.map((size) => (
          <label key={size}>
            <input type="radio" name={`${titleId}-size`} value={size} checked={t.captions.size === size} onChange={() => t.updateCaptions({ size })} data-testid={`captions-size-${size}`} />
            {CAPTION_SIZE_LABELS[size]}
          </label>
        ))}
      </fieldset>
    </Panel>
  );
}
