import { describe, expect, it } from 'vitest';
import { fitLevels } from './fit-levels';
import type { HistoryLevel, RenderedHistory } from './history-level';

/** Ten levels, each 1,000 tokens smaller than the last (10,000 … 1,000); `skew` adds to renderings. */
function ladder(skew: (index: number) => number = () => 0) {
  const levels: HistoryLevel[] = Array.from({ length: 10 }, (_, index) => ({
    previewTo: index,
    stubTo: index,
    foldTo: 0,
  }));
  const estimate = (level: HistoryLevel) => 10_000 - 1_000 * level.previewTo;
  const rendered: number[] = [];
  const render = (level: HistoryLevel): RenderedHistory => {
    rendered.push(level.previewTo);
    return { level, messages: [], tokens: estimate(level) + skew(level.previewTo), records: [], savings: {} };
  };
  return { levels, functions: { estimate, render, structured: false }, rendered };
}

describe('fitLevels', () => {
  it('keeps the level reached while it fits, and then steps as low as the aim, not just under the room', () => {
    const { levels, functions } = ladder();
    const atLeast = levels[2]!;
    expect(fitLevels(levels, functions, { room: 8_500, lowRoom: 3_500, atLeast })).toMatchObject({
      level: { previewTo: 2 },
      fits: true,
      low: true,
    });
    // Over the room: the first level at or under `lowRoom`, not the first under the room (level 3).
    expect(fitLevels(levels, functions, { room: 7_500, lowRoom: 3_500, atLeast })).toMatchObject({
      level: { previewTo: 7 },
      fits: true,
      low: true,
    });
    // No level that low, after a level was reached: the conversation is near its floor, and the
    // step is the deepest there is (not the first halfway there, level 6, passed again sooner).
    expect(fitLevels(levels.slice(0, 9), functions, { room: 7_500, lowRoom: 500, atLeast })).toMatchObject({
      level: { previewTo: 8 },
      fits: true,
      low: false,
    });
  });

  it('a first step that no level takes as low as the aim goes halfway there, keeping the newest previews', () => {
    const { levels, functions } = ladder();
    // 7,500 → 500: halfway is 4,000, level 6 (the deepest is level 8).
    const first = fitLevels(levels.slice(0, 9), functions, { room: 7_500, lowRoom: 500, atLeast: undefined });
    expect(first).toMatchObject({ level: { previewTo: 6 }, fits: true, low: false });
    // A conversation that has reached no reduction yet (level 0, remembered) steps the same way.
    const none0 = fitLevels(levels.slice(0, 9), functions, {
      room: 7_500,
      lowRoom: 500,
      atLeast: levels[0]!,
    });
    expect(none0).toMatchObject({ level: { previewTo: 6 }, fits: true, low: false });
    // None even halfway: the deepest.
    const none = fitLevels(levels.slice(0, 5), functions, { room: 7_500, lowRoom: 500, atLeast: undefined });
    expect(none).toMatchObject({ level: { previewTo: 4 }, fits: true, low: false });
  });

  it('judges the level reached by its rendering: an estimate just under the room is not a reason for the smallest step', () => {
    // The level reached estimates 8,000 (under the room of 8,200) but renders 8,400 (over it).
    const { levels, functions } = ladder((index) => (index === 2 ? 400 : 0));
    const fitted = fitLevels(levels, functions, { room: 8_200, lowRoom: 3_500, atLeast: levels[2]! });
    // Before, the step went to level 3 (7,000: 1,000 tokens freed, passed again a turn or two later).
    expect(fitted.level.previewTo).toBe(7);
    expect(fitted.low).toBe(true);
  });

  it('takes no step when the rendering of the level reached fits though its estimate does not', () => {
    // Structural notes save more than the estimate counts: 8,000 estimated, 7,000 rendered.
    const { levels, functions } = ladder((index) => (index === 2 ? -1_000 : 0));
    const fitted = fitLevels(levels, functions, { room: 7_500, lowRoom: 3_500, atLeast: levels[2]! });
    expect(fitted.level.previewTo).toBe(2);
    expect(fitted).toMatchObject({ fits: true, low: true });
  });

  it('a level reached that estimates under the aim but renders over the room steps to the first deeper level under the aim', () => {
    // Level 7 estimates 3,000 (under the aim of 3,500) but renders 8,000 (over the room of 7,500).
    // Estimates fall level by level, so every deeper level is under the aim too, and the first
    // deeper one that fits is the step (not level 7 again, and not a level that merely fits).
    const { levels, functions } = ladder((index) => (index === 7 ? 5_000 : 0));
    const fitted = fitLevels(levels, functions, { room: 7_500, lowRoom: 3_500, atLeast: levels[7]! });
    expect(fitted.level.previewTo).toBe(8);
    expect(fitted).toMatchObject({ fits: true, low: true });
  });
});
