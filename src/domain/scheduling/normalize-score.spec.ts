import {
  defaultNormalizeScore,
  MAX_NODE_SCORE,
  NODE_AFFINITY_WEIGHT,
  normalizeScore,
  TAINT_TOLERATION_WEIGHT,
  totalScore,
} from './normalize-score';

// pkg/scheduler/framework/plugins/helper/normalize_score.go DefaultNormalizeScore.
const listCases: Array<{ description: string; raws: number[]; reverse: boolean; expected: number[] }> = [
  {
    description: 'B.4.1 reverse: max 0 gives every node 100',
    raws: [0, 0, 0],
    reverse: true,
    expected: [100, 100, 100],
  },
  {
    description: 'B.4.1/B.8.10 reverse: equal non-zero counts normalise to 0',
    raws: [2, 2],
    reverse: true,
    expected: [0, 0],
  },
  {
    description: 'B.8.10 reverse: integer division before reversing (1 of max 3 → 67)',
    raws: [0, 1, 2, 3],
    reverse: true,
    expected: [100, 67, 34, 0],
  },
  {
    description: 'B.4.1 reverse: fewer untolerated PreferNoSchedule taints score higher',
    raws: [1, 4],
    reverse: true,
    expected: [75, 0],
  },
  { description: 'B.4.1 no nodes: nothing to normalise', raws: [], reverse: true, expected: [] },
  {
    description: 'NodeAffinity: non-reverse with max 0 keeps every score 0',
    raws: [0, 0],
    reverse: false,
    expected: [0, 0],
  },
  {
    description: 'NodeAffinity: non-reverse scales to the max (truncating)',
    raws: [0, 10, 15, 30],
    reverse: false,
    expected: [0, 33, 50, 100],
  },
  {
    description: 'NodeAffinity: non-reverse 2 of 3 → 66 (truncates, does not round)',
    raws: [2, 3],
    reverse: false,
    expected: [66, 100],
  },
];

describe('defaultNormalizeScore (SEMANTICS B.4.1)', () => {
  it.each(listCases)('$description', ({ raws, reverse, expected }) => {
    expect(defaultNormalizeScore(raws, reverse)).toEqual(expected);
    expect(raws.map((raw) => normalizeScore(raw, Math.max(0, ...raws), reverse))).toEqual(expected);
  });
});

const totalCases: Array<{ description: string; tt: number; na: number; ran: boolean; expected: number }> = [
  { description: 'B.4.1 weights 3:2 on the 0..100 scale', tt: 100, na: 100, ran: true, expected: 100 },
  {
    description: 'B.4.1 TaintToleration alone when NodeAffinity ran and scored 0',
    tt: 100,
    na: 0,
    ran: true,
    expected: 60,
  },
  {
    description: 'B.4.1 NodeAffinity skipped (no preferred terms): the total is TaintToleration',
    tt: 67,
    na: 0,
    ran: false,
    expected: 67,
  },
  { description: 'B.4.1 rounds half up: (3·67 + 2·50)/5 = 60.2 → 60', tt: 67, na: 50, ran: true, expected: 60 },
  { description: 'B.4.1 rounds half up: (3·0 + 2·1)/5 = 0.4 → 0', tt: 0, na: 1, ran: true, expected: 0 },
  { description: 'B.4.1 rounds half up: (3·1 + 2·1)/5 = 1', tt: 1, na: 1, ran: true, expected: 1 },
  { description: 'B.4.1 rounds half up: (3·34 + 2·33)/5 = 33.6 → 34', tt: 34, na: 33, ran: true, expected: 34 },
  { description: 'B.4.1 rounds half up: (3·0 + 2·66)/5 = 26.4 → 26', tt: 0, na: 66, ran: true, expected: 26 },
  { description: 'B.4.1 rounds half up: (3·75 + 2·0)/5 = 45', tt: 75, na: 0, ran: true, expected: 45 },
  { description: 'B.4.1 rounds half up: (3·0 + 2·100)/5 = 40', tt: 0, na: 100, ran: true, expected: 40 },
  {
    description: 'B.4.1 rounds to nearest: (3·1 + 2·0)/5 = 0.6 → 1 (fifths never tie at .5)',
    tt: 1,
    na: 0,
    ran: true,
    expected: 1,
  },
];

describe('totalScore', () => {
  it.each(totalCases)('$description', ({ tt, na, ran, expected }) => {
    expect(totalScore(tt, na, ran)).toBe(expected);
  });
});

describe('upstream scoring constants (SEMANTICS B.4.1)', () => {
  it.each([
    { description: 'B.4.1 TaintToleration default plugin weight is 3', value: TAINT_TOLERATION_WEIGHT, expected: 3 },
    { description: 'B.4.1 NodeAffinity default plugin weight is 2', value: NODE_AFFINITY_WEIGHT, expected: 2 },
    {
      description: 'B.4.1 DefaultNormalizeScore maxPriority is framework.MaxNodeScore = 100',
      value: MAX_NODE_SCORE,
      expected: 100,
    },
  ])('$description', ({ value, expected }) => {
    expect(value).toBe(expected);
  });
});
