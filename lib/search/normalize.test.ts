import { katakanaToHiragana, normalizeForSearch, searchTerms } from './normalize';

describe('search normalisation', () => {
  it('folds katakana to hiragana', () => {
    expect(katakanaToHiragana('シグナル')).toBe('しぐなる');
    expect(normalizeForSearch('サクライロ')).toBe(normalizeForSearch('さくらいろ'));
  });
  it('unifies full and half width and case', () => {
    expect(normalizeForSearch('ＹＵＭＥ　Cast')).toBe('yume cast');
    expect(normalizeForSearch('ｼｸﾞﾅﾙ')).toBe('しぐなる');
  });
  it('keeps kanji and splits terms', () => {
    expect(searchTerms(' 星降る　図書館 ')).toEqual(['星降る', '図書館']);
    expect(searchTerms('')).toEqual([]);
  });
});
