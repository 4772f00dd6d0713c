import {
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maxLenCharactersError,
  maxLenError,
  regexError,
  utf8ByteLength,
  validateLabelName,
} from './label-names';

// Upstream texts, written out (not computed) so a drift in the implementation shows.
const NAME_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const PREFIX_REGEX =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const TOO_MANY_SLASHES =
  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

const qualifiedNameCases: Array<{ description: string; value: string; expected: string[] }> = [
  { description: 'B.2.1 simple key is valid', value: 'dedicated', expected: [] },
  { description: 'B.2.1 prefixed key is valid', value: 'node.kubernetes.io/not-ready', expected: [] },
  {
    description: 'B.2.1 upper case, dots, underscores in the name part',
    value: 'example.com/My_Name.v1',
    expected: [],
  },
  { description: 'B.2.1 single character name', value: 'a', expected: [] },
  {
    description: 'B.2.1 empty name: non-empty + regex',
    value: '',
    expected: ['name part must be non-empty', NAME_REGEX],
  },
  { description: 'B.2.1 name ends with a dash', value: 'abc-', expected: [NAME_REGEX] },
  { description: 'B.2.1 name with a space', value: 'a b', expected: [NAME_REGEX] },
  { description: 'B.2.1 name of 63 characters is valid', value: 'a'.repeat(63), expected: [] },
  {
    description: 'B.2.1 name of 64 characters is too long',
    value: 'a'.repeat(64),
    expected: ['name part must be no more than 63 bytes'],
  },
  { description: 'B.2.1 empty prefix', value: '/name', expected: ['prefix part must be non-empty'] },
  {
    description: 'B.2.1 upper-case prefix is not a DNS-1123 subdomain',
    value: 'Example.com/name',
    expected: [PREFIX_REGEX],
  },
  { description: 'B.2.1 prefix with an underscore', value: 'ex_ample.com/name', expected: [PREFIX_REGEX] },
  { description: 'B.2.1 prefix of 253 characters is valid', value: `${'a'.repeat(253)}/name`, expected: [] },
  {
    description: 'B.2.1 prefix of 254 characters is too long',
    value: `${'a'.repeat(254)}/name`,
    expected: ['prefix part must be no more than 253 bytes'],
  },
  {
    description: 'B.2.1 empty name after a prefix',
    value: 'example.com/',
    expected: ['name part must be non-empty', NAME_REGEX],
  },
  { description: 'B.2.1 prefix and name both bad', value: 'A/-', expected: [PREFIX_REGEX, NAME_REGEX] },
  { description: 'B.2.1 two slashes: one error about the whole value', value: 'a/b/c', expected: [TOO_MANY_SLASHES] },
  { description: 'B.3.2 key containing "=" is not a qualified name', value: 'foo=bar', expected: [NAME_REGEX] },
  {
    description: 'B.2.1 length counts bytes: 32 two-byte characters exceed 63',
    value: 'é'.repeat(32),
    expected: ['name part must be no more than 63 bytes', NAME_REGEX],
  },
];

describe('isQualifiedName (apimachinery IsQualifiedName, SEMANTICS B.2.1)', () => {
  it.each(qualifiedNameCases)('$description', ({ value, expected }) => {
    expect(isQualifiedName(value)).toEqual(expected);
  });
});

const labelValueCases: Array<{ description: string; value: string; expected: string[] }> = [
  { description: 'B.2.1 empty label value is valid', value: '', expected: [] },
  { description: 'B.2.1 ordinary value', value: 'gpu', expected: [] },
  { description: 'B.2.2 numeric-looking values are just label values', value: '0100', expected: [] },
  { description: 'B.2.2 95.5 is a fine label value', value: '95.5', expected: [] },
  { description: 'B.2.1 63 characters is valid', value: 'v'.repeat(63), expected: [] },
  {
    description: 'B.2.1 64 characters is too long',
    value: 'v'.repeat(64),
    expected: ['must be no more than 63 bytes'],
  },
  {
    description: 'B.2.1 64 characters ending badly: both errors',
    value: `${'v'.repeat(63)}-`,
    expected: ['must be no more than 63 bytes', LABEL_VALUE_REGEX],
  },
  { description: 'B.2.1 slash is not allowed in a value', value: 'a/b', expected: [LABEL_VALUE_REGEX] },
  { description: 'B.2.1 leading dash', value: '-a', expected: [LABEL_VALUE_REGEX] },
  { description: 'B.2.1 +5 is not a label value', value: '+5', expected: [LABEL_VALUE_REGEX] },
];

describe('isValidLabelValue (apimachinery IsValidLabelValue)', () => {
  it.each(labelValueCases)('$description', ({ value, expected }) => {
    expect(isValidLabelValue(value)).toEqual(expected);
  });
});

describe('label-name helpers', () => {
  it('B.2.1 IsDNS1123Subdomain accepts example.com', () => {
    expect(isDns1123Subdomain('example.com')).toEqual([]);
  });
  it('B.2.1 RegexError without examples', () => {
    expect(regexError('must be x', 'x+')).toBe("must be x (regex used for validation is 'x+')");
  });
  it('B.2.1 ValidateLabelName gives one Invalid value per message', () => {
    expect(validateLabelName('', 'tolerations[0].key')).toEqual([
      { field: 'tolerations[0].key', type: 'Invalid value', message: 'Invalid value: "": name part must be non-empty' },
      { field: 'tolerations[0].key', type: 'Invalid value', message: `Invalid value: "": ${NAME_REGEX}` },
    ]);
  });
});

// apimachinery eed236ce (2026-07-23): pkg/api/validate/content/errors.go MaxLenError says "bytes" and serves
// label keys, values and prefixes (kube.go IsLabelKey/IsLabelValue); pkg/util/validation's MaxLenError still
// says "characters" and serves object names and namespaces (docs/SEMANTICS.md B.2.1).
describe('MaxLenError (apimachinery content and util/validation)', () => {
  it.each([
    {
      description: 'content: label names and values, 63',
      error: maxLenError,
      length: 63,
      expected: 'must be no more than 63 bytes',
    },
    {
      description: 'content: DNS-1123 subdomain prefixes, 253',
      error: maxLenError,
      length: 253,
      expected: 'must be no more than 253 bytes',
    },
    {
      description: 'util/validation: object names, 253',
      error: maxLenCharactersError,
      length: 253,
      expected: 'must be no more than 253 characters',
    },
    {
      description: 'util/validation: namespaces, 63',
      error: maxLenCharactersError,
      length: 63,
      expected: 'must be no more than 63 characters',
    },
  ])('$description', ({ error, length, expected }) => {
    expect(error(length)).toBe(expected);
  });

  it.each([
    {
      description: 'a prefix too long says bytes (content.IsDNS1123Subdomain)',
      value: `${'a'.repeat(254)}/k`,
      expected: 'prefix part must be no more than 253 bytes',
    },
    {
      description: 'a label key name too long says bytes (content.IsLabelKey)',
      value: 'k'.repeat(64),
      expected: 'name part must be no more than 63 bytes',
    },
  ])('$description', ({ value, expected }) => {
    expect(isQualifiedName(value)).toContain(expected);
  });

  it('an object name too long says characters (util/validation IsDNS1123Subdomain)', () => {
    expect(isDns1123Subdomain('a'.repeat(254), maxLenCharactersError)).toEqual(['must be no more than 253 characters']);
  });
});

describe('utf8ByteLength', () => {
  const encoded = (s: string) => new TextEncoder().encode(s).length;
  it.each([
    '',
    'a',
    'example.com/my-key',
    'é',
    'ü'.repeat(40),
    '€',
    '日本語のラベル',
    '😀',
    'a😀b',
    '\ud83d', // lone high surrogate at the end
    '\ud83dx', // lone high surrogate before an ASCII character
    '\ude00', // lone low surrogate
    '\ude00\ud83d', // reversed pair: two lone surrogates
    '\ud83d\ud83d\ude00', // a lone high surrogate, then a pair
    '\u007f\u0080\u07ff\u0800\uffff',
  ])('%j counts as TextEncoder encodes it', (value) => {
    expect(utf8ByteLength(value)).toBe(encoded(value));
  });

  it('agrees with TextEncoder on random strings over the whole UTF-16 range', () => {
    let seed = 42;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) & 0xffff;
    for (let n = 0; n < 2000; n++) {
      const length = next() % 12;
      let s = '';
      for (let i = 0; i < length; i++) {
        const r = next();
        // mostly surrogates and boundaries, where the encodings differ
        s += String.fromCharCode(r % 3 === 0 ? 0xd800 + (r % 0x800) : r % 3 === 1 ? r % 0x900 : r);
      }
      expect(utf8ByteLength(s)).toBe(encoded(s));
    }
  });
});
