import { throttledLog } from './throttled-log';

describe('throttledLog', () => {
  it('logs the first message, suppresses repeats within the interval and reports how many', () => {
    let t = 0;
    const lines: Array<[number, string]> = [];
    const log = throttledLog(
      (suppressed: number, msg: string) => lines.push([suppressed, msg]),
      1000,
      () => t,
    );
    log('a');
    t = 100;
    log('b');
    t = 500;
    log('c');
    t = 1200;
    log('d');
    t = 1300;
    log('e');
    t = 2300;
    log('f');
    expect(lines).toEqual([
      [0, 'a'],
      [2, 'd'],
      [1, 'f'],
    ]);
  });
});
