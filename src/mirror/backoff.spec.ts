import { backoffDelay } from './backoff';

describe('backoffDelay (exponential, full jitter)', () => {
  const policy = { initialMs: 200, maxMs: 30_000 };
  it.each([
    // attempt, random draw, expected wait
    [0, 0, 100], // the floor (initial / 2): a failing watch never spins
    [0, 0.999, 199],
    [1, 0.5, 200],
    [3, 0.5, 800], // ceiling 200 × 2^3 = 1,600
    [3, 0, 100],
    [10, 0.5, 15_000], // ceiling capped at maxMs
    [10, 0.999, 29_970],
    [1000, 0.25, 7_500], // huge attempts stay at the cap, no overflow
    [-1, 0.5, 100], // a negative attempt counts as 0
  ])('attempt %d, draw %d → %d ms', (attempt, random, expected) => {
    expect(backoffDelay(policy, attempt, random)).toBe(expected);
  });

  it('stays within [floor, ceiling] for any draw (jitter spreads mirrors cut off together)', () => {
    for (let attempt = 0; attempt < 20; attempt++)
      for (let i = 0; i < 50; i++) {
        const wait = backoffDelay(policy, attempt, Math.random());
        expect(wait).toBeGreaterThanOrEqual(100);
        expect(wait).toBeLessThanOrEqual(Math.min(30_000, 200 * 2 ** attempt));
      }
  });

  it('honours an explicit floor and a ceiling below it', () => {
    expect(backoffDelay({ initialMs: 10, maxMs: 5, floorMs: 50 }, 4, 0)).toBe(5);
    expect(backoffDelay({ initialMs: 100, maxMs: 1000, floorMs: 0 }, 0, 0)).toBe(0);
  });
});
