import { describe, expect, it } from 'vitest';
import { parseSrcset } from './srcset.js';

describe('parseSrcset', () => {
  it.each([
    ['a.png 1x, b.png 2x', ['a.png', 'b.png']],
    ['a.png', ['a.png']],
    ['  a.png 100w,b.png   200w ', ['a.png', 'b.png']],
    [
      'https://cdn.example/w_100,h_50/a.jpg 1x, https://cdn.example/w_200,h_100/a.jpg 2x',
      ['https://cdn.example/w_100,h_50/a.jpg', 'https://cdn.example/w_200,h_100/a.jpg'],
    ],
    ['a.png,b.png', ['a.png,b.png']],
    ['a.png, b.png', ['a.png', 'b.png']],
    ['', []],
  ])('%j → %j', (input, expected) => {
    expect(parseSrcset(input).map((candidate) => candidate.url)).toEqual(expected);
  });
});
