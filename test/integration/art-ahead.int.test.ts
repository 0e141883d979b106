/**
 * The art lookahead (runtime/src/art-ahead.ts) on its own, in Node: the order of a story's art
 * read from compiled ink JSON (both tag forms, repeats of the same image in a row as one use), the
 * cursor following what the screen shows (forwards, and back to a first use when the play jumped
 * back), the next images nearest first without what the screen shows, and which held image the
 * story needs last (`distance`, the art store's eviction order). The art store with it runs in
 * Chromium: runtime-memory.int.test.ts.
 */
import { Lookahead, artOrder, type StageKeys } from '../../runtime/src/art-ahead';

/** Every scene and character is declared (expression as written, `normal` by default). */
const keys: StageKeys = {
  stageKeys: (scene, chars) => [...(scene ? [`bg:${scene}`] : []), ...chars.map((c) => `sprite:${c.id}/${c.expr}`)],
};

describe('art lookahead', () => {
  it('reads the story art in order from compiled ink JSON (ink 21 and older tags)', () => {
    const ink = JSON.stringify({
      root: ['#', '^scene: station', '/#', '#', '^char: mio smile left', '/#', '^line', '#', '^char: mio smile left', '/#', { '#': 'scene: cafe' }, '#', '^bgm: rain', '/#', '#', '^char: sora', '/#'],
    });
    expect(artOrder(ink, keys)).toEqual(['bg:station', 'sprite:mio/smile', 'bg:cafe', 'sprite:sora/normal']);
  });

  it('follows the screen forwards and back, and says what is needed last', () => {
    const la = new Lookahead();
    la.setOrder(['bg:a', 'sprite:x/1', 'bg:b', 'sprite:y/1', 'bg:a', 'bg:c']);
    expect(la.position).toBe(-1);
    expect(la.next()).toEqual(['bg:a', 'sprite:x/1', 'bg:b', 'sprite:y/1', 'bg:c']);

    la.follow(['bg:a', 'sprite:x/1']);
    expect(la.position).toBe(1);
    expect(la.next()).toEqual(['bg:b', 'sprite:y/1', 'bg:c']);
    // bg:a comes back after bg:b and sprite:y/1; bg:c is last; sprite:x/1 is not used again
    expect(la.distance('bg:b')).toBe(1);
    expect(la.distance('bg:a')).toBe(3);
    expect(la.distance('sprite:x/1')).toBe(Infinity);

    la.follow(['bg:b']);
    expect(la.position).toBe(2);
    la.follow(['bg:a']);
    expect(la.position).toBe(4);
    expect(la.next()).toEqual(['bg:c']);

    // a load of an early save: the cursor goes back to the image's first use
    la.follow(['sprite:x/1']);
    expect(la.position).toBe(1);
    expect(la.next()[0]).toBe('bg:b');
  });

  it('keeps following what the screen shows when the order is set again', () => {
    const la = new Lookahead();
    la.follow(['bg:b']);
    la.setOrder(['bg:a', 'bg:b', 'bg:c']);
    expect(la.position).toBe(1);
    expect(la.next()).toEqual(['bg:c']);
  });
});
