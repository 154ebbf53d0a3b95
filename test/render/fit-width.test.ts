// Fitting a line to a terminal: widths in screen columns, cuts at whole characters, numbers kept.
import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth } from '../../src/render/display-width.js';
import { cuttable, fitParts } from '../../src/render/fit-parts.js';
import { roundStep, tickLabel } from '../../src/report/page/axis.js';

describe('cutToWidth', () => {
  it.each([
    ['plain text', 'abcdefghij', 5, 'abcd…'],
    ['fits already', 'abc', 3, 'abc'],
    ['wide characters take two columns', '幅の広い文字', 7, '幅の広…'],
    ['an emoji is never split', 'ok🎉🎉🎉', 5, 'ok🎉…'],
    ['a family emoji is one character of two columns', 'a👨‍👩‍👧b', 3, 'a…'],
    ['one "…" at the end, not two', 'abcdef…', 4, 'abc…'],
  ])('%s', (_name, text, columns, expected) => {
    expect(cutToWidth(text, columns)).toBe(expected);
    expect(displayWidth(cutToWidth(text, columns))).toBeLessThanOrEqual(columns);
  });
});

describe('fitParts', () => {
  it('cuts the longest cuttable part first and keeps the numbers whole', () => {
    const parts = ['12:00:00.000 <- response   ', cuttable('tools/call'), '#10', cuttable('tool=trigger-long-running-operation'), '48ms'];
    const { line, whole } = fitParts(parts, 60);
    expect(line).toBe('12:00:00.000 <- response    tools/call #10 tool=trigge… 48ms');
    expect(whole).toBe(false);
    expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('leaves whole parts off the end for "…" when cutting is not enough', () => {
    const { line } = fitParts(['12:00:00.000 -> request    ', cuttable('notifications/initialized'), '#123456', '1234.5ms'], 44);
    expect(line).toBe('12:00:00.000 -> request     notific… …');
  });
});

describe('round axis steps', () => {
  it.each([
    [2485, 500],
    [994, 200],
    [10, 2],
    [73_000, 20_000],
    [1, 0.2],
  ])('over %d ms: %d', (total, step) => {
    expect(roundStep(total)).toBeCloseTo(step, 9);
  });

  it('labels ticks without float noise', () => {
    expect([0, 200, 1000, 1500, 0.6].map(tickLabel)).toEqual(['0 ms', '200 ms', '1 s', '1.5 s', '0.6 ms']);
  });
});
