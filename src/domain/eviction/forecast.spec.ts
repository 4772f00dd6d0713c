import { forecastErrorMs, isOverdueForecast } from './forecast';

const t = (iso: string) => new Date(iso);

describe('forecastErrorMs (a mirror: when the cluster removed the pod − the forecast evictAt)', () => {
  it.each([
    ['on time', '2026-01-01T00:00:10.000Z', '2026-01-01T00:00:10.000Z', 0],
    ['the cluster evicted 1.5 s late', '2026-01-01T00:00:10.000Z', '2026-01-01T00:00:11.500Z', 1500],
    ['the cluster evicted 2 s early', '2026-01-01T00:00:10.000Z', '2026-01-01T00:00:08.000Z', -2000],
    // kubernetes#108268: a controller-manager restart re-stamps the clock, the eviction comes tolerationSeconds later
    ['a taint manager restart: 300 s late', '2026-01-01T00:05:00.000Z', '2026-01-01T00:10:00.000Z', 300_000],
    ['clamped to 32 bits', '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 2 ** 31 - 1],
    ['clamped below', '2026-03-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', -(2 ** 31 - 1)],
  ])('%s', (_, evictAt, observedAt, expected) => {
    expect(forecastErrorMs(t(evictAt), t(observedAt))).toBe(expected);
  });
});

describe('isOverdueForecast', () => {
  const evictAt = t('2026-01-01T00:00:00.000Z');
  it.each([
    ['within the grace', { status: 'Scheduled', forecast: true, evictAt }, '2026-01-01T00:01:00.000Z', 60_000, false],
    ['past the grace', { status: 'Scheduled', forecast: true, evictAt }, '2026-01-01T00:01:00.001Z', 60_000, true],
    ['no grace, 1 ms late', { status: 'Scheduled', forecast: true, evictAt }, '2026-01-01T00:00:00.001Z', 0, true],
    ['executed already', { status: 'Executed', forecast: true, evictAt }, '2026-01-02T00:00:00.000Z', 0, false],
    ['not a forecast', { status: 'Scheduled', forecast: false, evictAt }, '2026-01-02T00:00:00.000Z', 0, false],
  ])('%s', (_, row, now, grace, expected) => {
    expect(isOverdueForecast(row, t(now), grace)).toBe(expected);
  });
});
