import {
  type LabelRequirement,
  LabelSelectorError,
  type Labels,
  matchesRequirement,
  parseLabelSelector,
} from './parse-label-selector';

// pkg/labels/selector.go @ eed236ce: a bad value is a field.Invalid at values[i][key] with content.IsLabelValue's text
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and " +
  "end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is " +
  "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const parseCases: Array<{ description: string; selector: string; expected: LabelRequirement[] }> = [
  { description: 'labels.Parse empty selector: no requirements', selector: '', expected: [] },
  { description: 'labels.Parse blank selector: no requirements', selector: '  \t ', expected: [] },
  { description: 'labels.Parse a=b', selector: 'a=b', expected: [{ key: 'a', operator: '=', values: ['b'] }] },
  { description: 'labels.Parse a==b', selector: 'a==b', expected: [{ key: 'a', operator: '==', values: ['b'] }] },
  { description: 'labels.Parse a!=b', selector: 'a!=b', expected: [{ key: 'a', operator: '!=', values: ['b'] }] },
  {
    description: 'labels.Parse a= means the empty value',
    selector: 'a=',
    expected: [{ key: 'a', operator: '=', values: [''] }],
  },
  {
    description: 'labels.Parse bare key: Exists',
    selector: 'a',
    expected: [{ key: 'a', operator: 'Exists', values: [] }],
  },
  {
    description: 'labels.Parse !key: DoesNotExist',
    selector: '!a',
    expected: [{ key: 'a', operator: 'DoesNotExist', values: [] }],
  },
  {
    description: 'labels.Parse in with values sorted and de-duplicated',
    selector: 'zone in (b, a, b)',
    expected: [{ key: 'zone', operator: 'in', values: ['a', 'b'] }],
  },
  {
    description: 'labels.Parse notin',
    selector: 'zone notin (a)',
    expected: [{ key: 'zone', operator: 'notin', values: ['a'] }],
  },
  {
    description: 'labels.Parse in () is the empty value',
    selector: 'a in ()',
    expected: [{ key: 'a', operator: 'in', values: [''] }],
  },
  {
    description: 'labels.Parse (,x) and (x,) contain the empty value',
    selector: 'a in (,x),b in (y,),c in (p,,q)',
    expected: [
      { key: 'a', operator: 'in', values: ['', 'x'] },
      { key: 'b', operator: 'in', values: ['', 'y'] },
      { key: 'c', operator: 'in', values: ['', 'p', 'q'] },
    ],
  },
  {
    description: 'labels.Parse whitespace tolerant, comma = AND',
    selector: ' pool = gpu ,  !spot , zone in(a,b) ',
    expected: [
      { key: 'pool', operator: '=', values: ['gpu'] },
      { key: 'spot', operator: 'DoesNotExist', values: [] },
      { key: 'zone', operator: 'in', values: ['a', 'b'] },
    ],
  },
  {
    description: 'labels.Parse prefixed keys',
    selector: 'node.kubernetes.io/instance-type=m5.large',
    expected: [{ key: 'node.kubernetes.io/instance-type', operator: '=', values: ['m5.large'] }],
  },
  {
    description: 'labels.Parse "in" and "notin" are fine as keys and values',
    selector: 'in=notin,notin in (in)',
    expected: [
      { key: 'in', operator: '=', values: ['notin'] },
      { key: 'notin', operator: 'in', values: ['in'] },
    ],
  },
  {
    description: 'labels.Parse Gt and Lt',
    selector: 'cores>4,mem<16',
    expected: [
      { key: 'cores', operator: '>', values: ['4'] },
      { key: 'mem', operator: '<', values: ['16'] },
    ],
  },
];

describe('parseLabelSelector (apimachinery labels.Parse)', () => {
  it.each(parseCases)('$description', ({ selector, expected }) => {
    expect(parseLabelSelector(selector).requirements).toEqual(expected);
  });
});

const errorCases: Array<{ description: string; selector: string; message: string }> = [
  {
    description: 'labels.Parse a lone "!"',
    selector: '!',
    message: "unable to parse requirement: found '', expected: identifier",
  },
  {
    description: 'labels.Parse starts with an operator',
    selector: '=a',
    message: "found '=', expected: !, identifier, or 'end of string'",
  },
  { description: 'labels.Parse trailing comma', selector: 'a=b,', message: "found '', expected: identifier after ','" },
  { description: 'labels.Parse double comma', selector: 'a,,b', message: "found ',', expected: identifier after ','" },
  { description: 'labels.Parse two values', selector: 'a=b c', message: "found 'c', expected: ',' or 'end of string'" },
  {
    description: 'labels.Parse !key followed by an operator',
    selector: '!a=b',
    message: "found '=', expected: ',' or 'end of string'",
  },
  {
    description: 'labels.Parse unknown operator word',
    selector: 'a is b',
    message: "unable to parse requirement: found 'is', expected: =, !=, ==, in, notin, >, <",
  },
  {
    description: 'labels.Parse "in" without parentheses',
    selector: 'a in b',
    message: "unable to parse requirement: found 'b' expected: '('",
  },
  {
    description: 'labels.Parse unclosed list',
    selector: 'a in (x',
    message: "unable to parse requirement: found '', expected: ',' or ')'",
  },
  {
    description: 'labels.Parse operator inside a list',
    selector: 'a in (=)',
    message: "unable to parse requirement: found '=', expected: ',', ')' or identifier",
  },
  {
    description: 'labels.Parse operator after a comma in a list',
    selector: 'a in (x,=)',
    message: "unable to parse requirement: found '=', expected: ',', or identifier",
  },
  {
    description: 'labels.Parse operator after "=" ',
    selector: 'a==!',
    message: "unable to parse requirement: found '!', expected: identifier",
  },
  {
    description: 'labels.Parse invalid key',
    selector: 'bad_key-=x',
    message: `unable to parse requirement: <nil>: Invalid value: "bad_key-": ${NAME_REGEX}`,
  },
  {
    description: 'labels.Parse invalid value',
    selector: 'a=-x',
    message:
      "unable to parse requirement: values[0][a]: Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  },
  {
    description: 'labels.Parse Gt needs an integer',
    selector: 'a>x',
    message:
      "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
  },
  {
    description: 'labels.Parse Gt/Lt values are label values too, so negatives are refused',
    selector: 'a>-1',
    message:
      "unable to parse requirement: values[0][a]: Invalid value: \"-1\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  },
  {
    description: 'labels.Parse Lt with no value',
    selector: 'a<',
    message:
      "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer",
  },
  {
    description: 'labels.Parse several bad values: an aggregate, in the sorted order of the value set',
    selector: 'a in (-y,-x)',
    message:
      `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${LABEL_VALUE_MESSAGE}, ` +
      `values[1][a]: Invalid value: "-y": ${LABEL_VALUE_MESSAGE}]`,
  },
];

describe('parseLabelSelector errors', () => {
  it.each(errorCases)('$description', ({ selector, message }) => {
    let thrown: unknown;
    try {
      parseLabelSelector(selector);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LabelSelectorError);
    expect(thrown).toMatchObject({ message, selector, name: 'LabelSelectorError' });
  });
});

const labels: Labels = { pool: 'gpu', zone: 'a', cores: '8', odd: '+5', empty: '' };
const matchCases: Array<{ description: string; selector: string; labels: Labels; expected: boolean }> = [
  { description: 'labels.Parse empty selector matches everything', selector: '', labels: {}, expected: true },
  { description: 'labels.Parse = matches', selector: 'pool=gpu', labels, expected: true },
  { description: 'labels.Parse = needs the key', selector: 'missing=x', labels, expected: false },
  { description: 'labels.Parse == other value', selector: 'pool==cpu', labels, expected: false },
  { description: 'labels.Parse != matches when the key is absent', selector: 'missing!=x', labels, expected: true },
  { description: 'labels.Parse != fails on equal value', selector: 'pool!=gpu', labels, expected: false },
  {
    description: 'labels.Parse notin matches when the key is absent',
    selector: 'missing notin (a)',
    labels,
    expected: true,
  },
  { description: 'labels.Parse notin fails on a listed value', selector: 'zone notin (a,b)', labels, expected: false },
  { description: 'labels.Parse in matches a listed value', selector: 'zone in (b,a)', labels, expected: true },
  { description: 'labels.Parse in needs the key', selector: 'missing in (a)', labels, expected: false },
  { description: 'labels.Parse Exists', selector: 'empty', labels, expected: true },
  { description: 'labels.Parse = with empty value matches an empty label', selector: 'empty=', labels, expected: true },
  { description: 'labels.Parse DoesNotExist', selector: '!pool', labels, expected: false },
  {
    description: 'labels.Parse all requirements must hold (AND)',
    selector: 'pool=gpu,zone=b',
    labels,
    expected: false,
  },
  { description: 'labels.Parse Gt', selector: 'cores>4', labels, expected: true },
  { description: 'labels.Parse Lt', selector: 'cores<4', labels, expected: false },
  { description: 'labels.Parse Gt on a missing key', selector: 'missing>1', labels, expected: false },
  { description: 'labels.Parse Gt on a non-integer label', selector: 'pool>1', labels, expected: false },
  { description: 'labels.Parse Gt parses labels as Go ParseInt (+5)', selector: 'odd>4', labels, expected: true },
  { description: 'labels.Parse keys are looked up as own properties', selector: 'toString', labels, expected: false },
];

describe('label selector matching (Requirement.Matches)', () => {
  it.each(matchCases)('$description', ({ selector, labels: l, expected }) => {
    expect(parseLabelSelector(selector)(l)).toBe(expected);
  });

  it('labels.Parse matchesRequirement is usable on its own', () => {
    expect(matchesRequirement({ key: 'a', operator: 'Exists', values: [] }, { a: 'x' })).toBe(true);
  });
});
