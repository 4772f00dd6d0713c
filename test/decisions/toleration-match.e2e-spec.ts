import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { withoutNulls } from './decisions-helpers';

// API.md "Decisions" POST /v1/decisions/toleration-match, through REST and GraphQL.
const MATCH_QUERY = `query($taints: [TaintInput!]!, $tolerations: [TolerationInput!]!) {
  tolerationMatch(taints: $taints, tolerations: $tolerations) {
    matches { taint { key value effect } tolerated tolerationIndex }
    schedulable preferAvoid eviction { action afterSeconds }
  }
}`;

const gpu = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const maint = { key: 'maintenance', value: 'true', effect: 'NoExecute' };
const spot = { key: 'spot', value: '', effect: 'PreferNoSchedule' };
const sla = (value: string) => ({ key: 'sla', value, effect: 'NoSchedule' });

const cases = [
  {
    description: 'B.1.1 Equal with the same value tolerates',
    taints: [gpu],
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    expected: {
      matches: [{ taint: gpu, tolerated: true, tolerationIndex: 0 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'B.1.1 Equal compares strings: another value does not tolerate; the node is not schedulable',
    taints: [gpu],
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'cpu', effect: 'NoSchedule' }],
    expected: {
      matches: [{ taint: gpu, tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'B.1.1 a different effect does not tolerate',
    taints: [gpu],
    tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }],
    expected: {
      matches: [{ taint: gpu, tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'B.8.5 empty key + Exists tolerates every taint; the FIRST tolerating toleration is reported (B.1.6)',
    taints: [gpu, maint],
    tolerations: [{ key: 'dedicated', operator: 'Exists' }, { operator: 'Exists' }],
    expected: {
      matches: [
        { taint: gpu, tolerated: true, tolerationIndex: 0 },
        { taint: maint, tolerated: true, tolerationIndex: 1 },
      ],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'A.3 NoExecute with tolerationSeconds → EvictAfter those seconds',
    taints: [maint],
    tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 }],
    expected: {
      matches: [{ taint: maint, tolerated: true, tolerationIndex: 0 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'EvictAfter', afterSeconds: 120 },
    },
  },
  {
    description: 'B.8.12 tolerationSeconds 0 (or negative) → EvictNow',
    taints: [maint],
    tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: -5 }],
    expected: {
      matches: [{ taint: maint, tolerated: true, tolerationIndex: 0 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'EvictNow' },
    },
  },
  {
    description: 'A.3 an untolerated NoExecute taint → EvictNow, not schedulable',
    taints: [maint],
    tolerations: [],
    expected: {
      matches: [{ taint: maint, tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'EvictNow' },
    },
  },
  {
    description: 'B.4.1 an untolerated PreferNoSchedule taint → preferAvoid, still schedulable',
    taints: [spot],
    tolerations: [],
    expected: {
      matches: [{ taint: spot, tolerated: false }],
      schedulable: true,
      preferAvoid: true,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'A.1/B.8.1 Gt: the taint value above the toleration value tolerates',
    taints: [sla('950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900', effect: 'NoSchedule' }],
    expected: {
      matches: [{ taint: sla('950'), tolerated: true, tolerationIndex: 0 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'A.1/B.8.1 Gt: equal values never match',
    taints: [sla('900')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900', effect: 'NoSchedule' }],
    expected: {
      matches: [{ taint: sla('900'), tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'A.1/B.8.1 Lt: the taint value below the toleration value tolerates',
    taints: [sla('850')],
    tolerations: [{ key: 'sla', operator: 'Lt', value: '900', effect: 'NoSchedule' }],
    expected: {
      matches: [{ taint: sla('850'), tolerated: true, tolerationIndex: 0 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'B.8.2 a non-canonical taint value (0950) never matches Gt/Lt (taint values are not validated)',
    taints: [sla('0950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900', effect: 'NoSchedule' }],
    expected: {
      matches: [{ taint: sla('0950'), tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
];

describe.each(testModes())('POST /v1/decisions/toleration-match (%s)', (mode) => {
  let app: TestApp;
  const match = (body: unknown) => app.request('POST', '/v1/decisions/toleration-match', body);
  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(cases)('$description', async ({ taints, tolerations, expected }) => {
    const r = await match({ taints, tolerations });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(expected);
    const gql = await app.graphql(MATCH_QUERY, { taints, tolerations });
    expect(gql.body.errors).toBeUndefined();
    expect(withoutNulls(gql.body.data!.tolerationMatch)).toEqual(expected);
  });

  it('echoes a given timeAdded on the taint, without letting it change the fresh eviction answer', async () => {
    const taint = { ...maint, timeAdded: '2020-01-01T00:00:00Z' };
    const r = await match({
      taints: [taint],
      tolerations: [{ key: 'maintenance', operator: 'Exists', tolerationSeconds: 60, effect: 'NoExecute' }],
    });
    expect(r.body.matches[0].taint).toEqual({ ...maint, timeAdded: '2020-01-01T00:00:00.000Z' });
    expect(r.body.eviction).toEqual({ action: 'EvictAfter', afterSeconds: 60 });
  });

  it('B.2.1/B.2.2 422 with Kubernetes field paths and words for invalid taints and tolerations', async () => {
    const r = await match({
      taints: [{ key: 'a', value: 'b', effect: 'NoScheduled' }],
      tolerations: [
        { key: '', operator: 'Equal', value: 'x' },
        { key: 'k', operator: 'Gt', value: '0100', effect: 'NoSchedule' },
        { key: 'k', tolerationSeconds: 5 },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.errors).toEqual([
      {
        field: 'taints[0].effect',
        message: 'Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      },
      {
        field: 'tolerations[0].operator',
        message:
          'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      },
      {
        field: 'tolerations[1].value',
        message: 'Invalid value: "0100": must be a valid decimal integer in canonical form',
      },
      {
        field: 'tolerations[2].effect',
        message: 'Invalid value: "": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      },
    ]);
    const gql = await app.graphql(MATCH_QUERY, {
      taints: [gpu],
      tolerations: [{ key: '', operator: 'Equal', value: 'x' }],
    });
    expect(gql.body.errors![0].extensions).toEqual({
      code: 'UNPROCESSABLE_ENTITY',
      status: 422,
      errors: [
        {
          field: 'tolerations[0].operator',
          message:
            'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        },
      ],
    });
  });

  it.each([
    { description: 'a missing tolerations list', body: { taints: [gpu] }, field: 'tolerations' },
    {
      description: 'tolerationSeconds as a string',
      body: { taints: [gpu], tolerations: [{ key: 'a', tolerationSeconds: '5' }] },
      field: 'tolerations[0].tolerationSeconds',
    },
    {
      description: 'an unknown taint field',
      body: { taints: [{ ...gpu, colour: 'red' }], tolerations: [] },
      field: 'taints[0].colour',
    },
  ])('400 with the field path for $description', async ({ body, field }) => {
    const r = await match(body);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('GraphQL rejects an effect outside the enum before it reaches the service', async () => {
    const r = await app.graphql(
      '{ tolerationMatch(taints: [{key: "a", effect: NoScheduled}], tolerations: []) { schedulable } }',
    );
    expect(r.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('toleration-match with COMPARISON_OPERATORS=false (SEMANTICS A.1, B.8.4)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('embedded', { env: { COMPARISON_OPERATORS: 'false' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('rejects Gt/Lt tolerations with the upstream message listing four operators (REST and GraphQL)', async () => {
    const body = {
      taints: [sla('950')],
      tolerations: [{ key: 'sla', operator: 'Gt', value: '900', effect: 'NoSchedule' }],
    };
    const r = await app.request('POST', '/v1/decisions/toleration-match', body);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        field: 'tolerations[0].operator',
        message: 'Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"',
      },
    ]);
    const gql = await app.graphql(MATCH_QUERY, body);
    expect(gql.body.errors![0].extensions).toMatchObject({
      code: 'UNPROCESSABLE_ENTITY',
      errors: [{ field: 'tolerations[0].operator' }],
    });
    const info = await app.graphql('{ serviceInfo { comparisonOperators } }');
    expect(info.body.data.serviceInfo.comparisonOperators).toBe(false);
  });

  it('still matches Equal and Exists', async () => {
    const r = await app.request('POST', '/v1/decisions/toleration-match', {
      taints: [gpu],
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
    });
    expect(r.body).toMatchObject({ schedulable: true, matches: [{ tolerated: true, tolerationIndex: 0 }] });
  });

  it('an inline pod with a Gt toleration is refused by feasible-nodes too (422 under pod.)', async () => {
    const r = await app.request('POST', '/v1/decisions/feasible-nodes', {
      pod: { tolerations: [{ key: 'sla', operator: 'Lt', value: '5' }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        field: 'pod.tolerations[0].operator',
        message: 'Unsupported value: "Lt": supported values: "Equal", "Exists", "Lt", "Gt"',
      },
    ]);
  });
});
