import { namedKey, normalisedPoint } from './coords';

describe('normalisedPoint', () => {
  it('maps the letterboxed picture to 0..1 and ignores the bars', () => {
    // a 1000x1000 element shows a 1000x562.5 picture with bars of 218.75 above and below
    const rect = { left: 0, top: 0, width: 1000, height: 1000 };
    expect(normalisedPoint(500, 500, rect)).toEqual({ x: 0.5, y: 0.5 });
    expect(normalisedPoint(0, 218.75, rect)).toEqual({ x: 0, y: 0 });
    expect(normalisedPoint(500, 100, rect)).toBeNull();
    expect(normalisedPoint(1000, 781.25, rect)).toEqual({ x: 1, y: 1 });
  });
  it('handles pillarboxing on a wide screen', () => {
    const rect = { left: 10, top: 0, width: 2000, height: 720 };
    expect(normalisedPoint(10 + 360, 0, rect)).toEqual({ x: 0, y: 0 });
    expect(normalisedPoint(100, 300, rect)).toBeNull();
  });
});

describe('namedKey', () => {
  it('maps browser keys to protocol names', () => {
    expect(namedKey(' ')).toBe('Space');
    expect(namedKey('Enter')).toBe('Enter');
    expect(namedKey('A')).toBe('a');
    expect(namedKey('F5')).toBeNull();
    expect(namedKey('Tab')).toBeNull();
  });
});
