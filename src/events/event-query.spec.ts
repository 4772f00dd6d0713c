import { AppError } from '../kernel/errors/app-error';
import { parsePosition } from './event-query';

// A position in the event log, from `Last-Event-ID` or `?since=`. The fuzzer sent 9223372036854775808
// (2^63) as Last-Event-ID: it reached PostgreSQL, which refused it, and the stream ended without an answer.
describe('parsePosition', () => {
  it.each([
    { raw: undefined, want: undefined },
    { raw: '', want: undefined },
    { raw: '0', want: { afterId: 0n } },
    { raw: ' 42 ', want: { afterId: 42n } },
    { raw: '9223372036854775807', want: { afterId: 9223372036854775807n } },
    { raw: '2026-11-25T19:00:00Z', want: { since: new Date('2026-11-25T19:00:00Z') } },
  ])('$raw reads as a position', ({ raw, want }) => {
    expect(parsePosition(raw, 'since')).toEqual(want);
  });

  it.each(['9223372036854775808', '9999999999999999999', '12345678901234567890', '-1', 'yesterday', '12abc'])(
    '%s is a 400 naming the field',
    (raw) => {
      const read = () => parsePosition(raw, 'Last-Event-ID');
      expect(read).toThrow(AppError);
      expect(read).toThrow('Last-Event-ID must be an event id or an RFC 3339 time');
    },
  );
});
