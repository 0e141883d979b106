/**
 * The SEI sender's pacing (TRTC: at most 30 SEI messages a second, 1000 bytes each) and its
 * coalescing of pointer moves. Pure logic: no SDK involved.
 */
import { installBrowserDoubles } from '../agora/testing/fakeMedia';
import { coalesceKeyOf, SEI_MAX_BYTES, SEI_QUEUE_MAX, SeiSender } from './sei';

installBrowserDoubles();

// Jest's modern fake timers move Date.now (the sender's default clock) with the timers.
function sender() {
  const sent: string[] = [];
  const kick = jest.fn();
  const s = new SeiSender({ sendSei: (b) => sent.push(new TextDecoder().decode(b)), kick });
  return { s, sent, kick };
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => jest.useRealTimers());

async function advance(ms: number) {
  await jest.advanceTimersByTimeAsync(ms);
}

test('the first message leaves at once (with a frame kick), the rest one per 34 ms slot, in order', async () => {
  const { s, sent, kick } = sender();
  for (const t of ['a', 'b', 'c']) expect(s.push(t)).toBe(true);
  expect(sent).toEqual(['a']);
  expect(kick).toHaveBeenCalledTimes(1);
  await advance(34);
  expect(sent).toEqual(['a', 'b']);
  await advance(34);
  expect(sent).toEqual(['a', 'b', 'c']);
});

test('a waiting pointer move is replaced by the newer one; other messages are never merged', async () => {
  const { s, sent } = sender();
  const move = (x: number) => JSON.stringify({ v: 1, type: 'pointer', kind: 'move', x, y: 0 });
  const moveKey = coalesceKeyOf({ type: 'pointer', kind: 'move' });
  s.push('down', coalesceKeyOf({ type: 'pointer', kind: 'down' }));
  s.push(move(0.1), moveKey);
  s.push(move(0.2), moveKey);
  s.push(move(0.3), moveKey);
  s.push('up');
  s.push(move(0.4), moveKey);
  await advance(1000);
  expect(sent).toEqual(['down', move(0.3), 'up', move(0.4)]);
});

test('refuses what SEI cannot carry: oversize messages, a full queue, anything after close', () => {
  const { s, sent } = sender();
  expect(s.push('x'.repeat(SEI_MAX_BYTES + 1))).toBe(false);
  expect(s.push('first')).toBe(true);
  for (let i = 0; i < SEI_QUEUE_MAX; i++) expect(s.push(`m${i}`)).toBe(true);
  expect(s.push('one too many')).toBe(false);
  s.close();
  expect(s.push('late')).toBe(false);
  jest.advanceTimersByTime(10_000);
  expect(sent).toEqual(['first']);
});

test('an SDK that throws (not published yet, no SEI support) loses that message and goes on', async () => {
  const sent: string[] = [];
  let fail = true;
  const s = new SeiSender({
    sendSei: (b) => {
      if (fail) throw new Error('not published');
      sent.push(new TextDecoder().decode(b));
    },
  });
  s.push('lost');
  fail = false;
  s.push('kept');
  await advance(34);
  expect(sent).toEqual(['kept']);
});
