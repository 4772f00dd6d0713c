import { formatFieldError } from '../validation/field-errors';
import type { DisruptionBudgetSpec } from './budget-types';
import { validateDisruptionBudget } from './validate-budget';

const messages = (spec: Partial<DisruptionBudgetSpec>, name = 'web', namespace = 'default') =>
  validateDisruptionBudget({ namespace, name, spec: { selector: {}, ...spec } }).map(formatFieldError);

// kubernetes pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec, apps ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent, apimachinery ValidateLabelSelector (docs/SEMANTICS.md B.9.1).
describe('validateDisruptionBudget', () => {
  it.each([
    ['minAvailable int', { minAvailable: 2 }],
    ['minAvailable 0', { minAvailable: 0 }],
    ['minAvailable percent', { minAvailable: '50%' }],
    ['maxUnavailable 100%', { maxUnavailable: '100%' }],
    ['neither (defaults to minAvailable 1)', {}],
    ['nil selector', { selector: null, minAvailable: 1 }],
    ['unhealthyPodEvictionPolicy AlwaysAllow', { unhealthyPodEvictionPolicy: 'AlwaysAllow' }],
  ] as Array<[string, Partial<DisruptionBudgetSpec>]>)('accepts %s', (_name, spec) => {
    expect(messages(spec)).toEqual([]);
  });

  const refused: Array<[string, Partial<DisruptionBudgetSpec>, string[]]> = [
    [
      'both set',
      { minAvailable: 1, maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
      [
        'spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
      ],
    ],
    [
      'negative minAvailable',
      { minAvailable: -1 },
      ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'negative maxUnavailable',
      { maxUnavailable: -3 },
      ['spec.maxUnavailable: Invalid value: -3: must be greater than or equal to 0'],
    ],
    [
      'a string that is not a percentage',
      { minAvailable: '5x' },
      [
        "spec.minAvailable: Invalid value: \"5x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'a negative percentage',
      { maxUnavailable: '-5%' },
      [
        "spec.maxUnavailable: Invalid value: \"-5%\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'more than 100%',
      { minAvailable: '101%' },
      ['spec.minAvailable: Invalid value: "101%": must not be greater than 100%'],
    ],
    [
      'In without values',
      { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } },
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      'Exists with values',
      { selector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } },
      [
        "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
    [
      'an unknown operator',
      { selector: { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] } },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator'],
    ],
    [
      'a bad label value in matchLabels',
      { selector: { matchLabels: { app: 'no spaces' } } },
      [
        "spec.selector.matchLabels: Invalid value: \"no spaces\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    ],
    [
      'an unsupported unhealthyPodEvictionPolicy',
      { unhealthyPodEvictionPolicy: 'Never' },
      [
        'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
      ],
    ],
  ];
  it.each(refused)('refuses %s', (_name, spec, expected) => {
    expect(messages(spec)).toEqual(expected);
  });

  it('checks the name and namespace', () => {
    expect(messages({}, 'Bad_Name', 'Bad_NS').map((m) => m.split(':')[0])).toEqual([
      'metadata.namespace',
      'metadata.name',
    ]);
  });
});
