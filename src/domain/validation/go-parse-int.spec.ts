import { goParseInt64Error } from './go-parse-int';

const syntax = (v: string) => `strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`;
const range = (v: string) => `strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`;

const cases: Array<{ description: string; value: string; expected: string | undefined }> = [
  { description: 'B.2.1 ParseInt accepts a canonical integer', value: '950', expected: undefined },
  { description: 'B.2.1 ParseInt accepts leading zeros (0100)', value: '0100', expected: undefined },
  { description: 'B.2.1 ParseInt accepts a plus sign (+5)', value: '+5', expected: undefined },
  { description: 'B.2.1 ParseInt accepts -0', value: '-0', expected: undefined },
  { description: 'B.2.1 ParseInt accepts int64 max', value: '9223372036854775807', expected: undefined },
  { description: 'B.2.1 ParseInt accepts int64 min', value: '-9223372036854775808', expected: undefined },
  { description: 'B.2.1 empty string: invalid syntax', value: '', expected: syntax('') },
  { description: 'B.2.1 letters: invalid syntax', value: 'abc', expected: syntax('abc') },
  { description: 'B.2.1 a lone sign: invalid syntax', value: '-', expected: syntax('-') },
  { description: 'B.2.1 decimal point: invalid syntax', value: '5.0', expected: syntax('5.0') },
  { description: 'B.2.1 leading space: invalid syntax', value: ' 5', expected: syntax(' 5') },
  {
    description: 'B.2.1 int64 max + 1: out of range',
    value: '9223372036854775808',
    expected: range('9223372036854775808'),
  },
  {
    description: 'B.2.1 int64 min - 1: out of range',
    value: '-9223372036854775809',
    expected: range('-9223372036854775809'),
  },
  {
    description: 'B.8.3 beyond uint64: out of range',
    value: '12345678901234567890123',
    expected: range('12345678901234567890123'),
  },
  {
    description: 'B.2.1 overflow is found before a later bad character',
    value: '99999999999999999999x',
    expected: range('99999999999999999999x'),
  },
];

describe('goParseInt64Error (Go strconv.ParseInt(v, 10, 64))', () => {
  it.each(cases)('$description', ({ value, expected }) => {
    expect(goParseInt64Error(value)).toBe(expected);
  });
});
