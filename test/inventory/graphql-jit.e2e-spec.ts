import fc from 'fast-check';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { getVariableValues, type GraphQLError, parse, type OperationDefinitionNode } from 'graphql';
import { compileVariableParsing } from 'graphql-jit/dist/variables';
import { chunkList, generateInventory } from '../../bench/generate-inventory';
import { graphQLOperation, podMix, taintImpactBody, toGraphQLInput } from '../../bench/scenarios';
import { JIT_COERCION_MAX_VALUES, jitMayJudge, variableTypesOf } from '../../src/kernel/graphql/jit-judged-variables';
import { inputValue } from '../support/graphql-input-arbitrary';
import { startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(180_000);

/** A fixed what-if time, so two services answer the same taint-impact at different instants alike. */
const AT = '2026-11-25T01:00:00.000Z';

/** The answers side by side from their first difference (a whole taint-impact is too long to read). */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  let i = 0;
  while (a[i] === b[i]) i++;
  return `at ${i}: graphql-jit …${a.slice(Math.max(0, i - 80), i + 120)}… graphql-js …${b.slice(Math.max(0, i - 80), i + 120)}…`;
}

// GRAPHQL_JIT (src/kernel/graphql/jit-execution.ts): queries are executed by graphql-jit. Two services on
// the same generated inventory, one with graphql-jit and one with graphql-js only, must give the same
// answers, byte for byte, for the queries platforms send: every field of the hot decisions (the bench's
// selections, built from the live schema), lists with paging, introspection, and queries that end in an
// error (which graphql-jit hands back to graphql-js, so errors keep Apollo's one format). Execution does not
// touch storage, so the embedded mode stands for both.
describe('GraphQL queries through graphql-jit answer exactly as graphql-js', () => {
  let jit: TestApp;
  let plain: TestApp;
  const cases: Array<{ name: string; query: string; variables?: Record<string, unknown> }> = [];

  beforeAll(async () => {
    [jit, plain] = await Promise.all([
      startTestApp('embedded', { env: { RATE_LIMIT_PER_MINUTE: '0', GRAPHQL_JIT: 'true' } }),
      startTestApp('embedded', { env: { RATE_LIMIT_PER_MINUTE: '0', GRAPHQL_JIT: 'false' } }),
    ]);
    // pinned timestamps: both services hold the same objects
    const inventory = generateInventory({
      nodes: 60,
      pods: 600,
      seed: 7,
      drainSeconds: 30,
      now: new Date('2026-11-25T00:00:00Z'),
    });
    for (const app of [jit, plain])
      for (const chunk of chunkList(inventory.items, 5_000))
        expect((await app.request('POST', '/v1/import', chunk)).status).toBe(200);
    const firstNode = inventory.items.find((i: any) => i.kind === 'Node')!.metadata.name;
    const post = (body: unknown) => jit.request('POST', '/graphql', body).then((r) => r.body);
    const feasible = (await graphQLOperation(post, 'feasibleNodes'))!;
    for (const [i, c] of podMix(inventory).entries())
      cases.push({
        name: `feasibleNodes, pod ${i}: ${c.name}`,
        query: feasible.query,
        variables: feasible.variables(c.body),
      });
    const impact = (await graphQLOperation(post, 'taintImpact'))!;
    cases.push({
      name: 'taintImpact, every field',
      query: impact.query,
      variables: impact.variables({ ...taintImpactBody(), at: AT }),
    });
    const summary = (await graphQLOperation(post, 'taintImpactSummary'))!;
    cases.push({
      name: 'taintImpactSummary',
      query: summary.query,
      variables: summary.variables({ ...taintImpactBody(), at: AT }),
    });
    cases.push(
      {
        name: 'nodes, a page with labels and taints',
        query:
          '{ nodes(first: 7) { edges { cursor node { name labels { key value } taints { key value effect } pods { name } } } pageInfo { hasNextPage endCursor } } }',
      },
      {
        name: 'pods, a page',
        query:
          '{ pods(first: 9, namespace: "team-a") { edges { node { namespace name nodeName phase } } pageInfo { endCursor } } }',
      },
      {
        name: 'one node by name',
        query: 'query($n: String!) { node(name: $n) { name unschedulable } }',
        variables: { n: firstNode },
      },
      { name: 'a node that does not exist', query: '{ node(name: "no-such-node") { name } }' },
      { name: 'introspection', query: '{ __schema { queryType { name } types { name kind } } }' },
      {
        name: 'a variable of the wrong type (an error)',
        query: 'query($l: Int) { nodes(first: $l) { pageInfo { endCursor } } }',
        variables: { l: 'x' },
      },
      {
        // beyond jitMayJudge's size: graphql-js checks it first and stops at the first wrong item
        name: 'a 20,000-item list of wrong values (an error)',
        query:
          'query($n: [String!]) { feasibleNodes(podRef: { namespace: "a", name: "b" }, nodeNames: $n) { feasibleCount } }',
        variables: { n: new Array(20_000).fill(1) },
      },
      { name: 'a resolver error (an invalid limit)', query: '{ nodes(first: -1) { pageInfo { endCursor } } }' },
      {
        name: 'feasibleNodes with an invalid pod (a 4xx from the service)',
        query: feasible.query,
        variables: feasible.variables({ pod: { tolerations: [{ operator: 'Bogus' }] } }),
      },
    );
    // sanity for the inputs themselves: the GraphQL mapping of a REST body is what the bench sends too
    expect(toGraphQLInput({ pod: { nodeSelector: { a: 'b' } } }).pod.nodeSelector).toEqual([{ key: 'a', value: 'b' }]);
  });
  afterAll(async () => {
    await Promise.all([jit?.close(), plain?.close()]);
  });

  it('gives the same status and the same text for every query, errors included', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
    let errors = 0;
    for (const c of cases) {
      // twice: the second answer of graphql-jit comes from the compiled document
      for (let round = 0; round < 2; round++) {
        const [a, b] = await Promise.all([
          jit.request('POST', '/graphql', { query: c.query, variables: c.variables }),
          plain.request('POST', '/graphql', { query: c.query, variables: c.variables }),
        ]);
        expect({ name: c.name, status: a.status, difference: firstDifference(a.text, b.text) }).toEqual({
          name: c.name,
          status: b.status,
          difference: undefined,
        });
        if (round === 0 && a.body.errors) errors++;
      }
    }
    // the error cases really were errors, and the rest were answers
    expect(errors).toBe(5);
    // and graphql-jit answered every query that did not end in an error (the other service: none)
    const executions = async (app: TestApp, executor: string) => {
      const text = (await app.request('GET', '/metrics')).text as string;
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`taintwise_graphql_executions_total{executor="${executor}"}`));
      return line === undefined ? 0 : Number(line.split(' ').pop());
    };
    expect(await executions(jit, 'graphql-jit')).toBeGreaterThanOrEqual((cases.length - errors) * 2);
    expect(await executions(plain, 'graphql-jit')).toBe(0);
  });

  // src/kernel/graphql/jit-execution.ts lets graphql-jit's compiled coercion alone judge the variables
  // that jitMayJudge admits. That is exact only if, for those, it refuses what graphql-js refuses and
  // coerces the rest to the same values: here, for the arguments of every query and mutation of the live
  // schema, over generated variables, mostly valid and wrong at any depth now and then
  // (test/support/graphql-input-arbitrary.ts). Each coercion is compiled once per field, as the plugin
  // compiles once per document; FUZZ_RUNS sets the inputs per field. Over all variables the two differ
  // (graphql-jit takes `[]` for an input object): the next test shows it, and jitMayJudge leaves every
  // such list to graphql-js.
  it('graphql-jit refuses the variables graphql-js refuses and coerces the rest alike, for every root field', () => {
    const schema = jit.app.get(GraphQLSchemaHost).schema;
    const roots = [schema.getQueryType()!, schema.getMutationType()!];
    const fields = roots.flatMap((root) => Object.values(root.getFields())).filter((f) => f.args.length > 0);
    expect(fields.length).toBeGreaterThanOrEqual(15);
    let refused = 0;
    let accepted = 0;
    for (const field of fields) {
      const definitions = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
      const operation = parse(`query(${definitions}) { __typename }`).definitions[0] as OperationDefinitionNode;
      const types = variableTypesOf(schema, operation.variableDefinitions!);
      // at run time always both keys, one of them undefined
      const jitCoercion = compileVariableParsing(schema, operation.variableDefinitions!) as (
        sent: Record<string, unknown>,
      ) => { errors?: readonly GraphQLError[]; coerced?: Record<string, unknown> };
      const variables = fc.record(Object.fromEntries(field.args.map((a) => [a.name, inputValue(a.type)])), {
        requiredKeys: [],
      });
      fc.assert(
        fc.property(variables, (generated) => {
          const sent = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>; // as it arrives
          if (!jitMayJudge(sent, types, JIT_COERCION_MAX_VALUES)) return;
          const js = getVariableValues(schema, operation.variableDefinitions!, sent);
          const byJit = jitCoercion(sent);
          expect({ field: field.name, sent, jitRefuses: byJit.errors !== undefined }).toEqual({
            field: field.name,
            sent,
            jitRefuses: js.errors !== undefined,
          });
          if (js.errors) refused++;
          else {
            accepted++;
            // graphql-jit keeps an absent nullable variable as an undefined key: the same JSON
            expect(JSON.stringify(byJit.coerced)).toBe(JSON.stringify(js.coerced));
          }
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
      );
    }
    // both outcomes were exercised, not only one of them
    expect(refused).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(100);
  });

  it('leaves an empty list for an input object to graphql-js: graphql-jit alone would take it as {}', () => {
    const schema = jit.app.get(GraphQLSchemaHost).schema;
    const operation = parse('query($pod: PodInput) { __typename }').definitions[0] as OperationDefinitionNode;
    const types = variableTypesOf(schema, operation.variableDefinitions!);
    const coerceByJit = compileVariableParsing(schema, operation.variableDefinitions!) as (
      sent: Record<string, unknown>,
    ) => { errors?: unknown };
    const sent = { pod: [] };
    const js = getVariableValues(schema, operation.variableDefinitions!, sent);
    expect(js.errors?.[0].message).toMatch(/Expected type "PodInput" to be an object/);
    expect(coerceByJit(sent).errors).toBeUndefined();
    expect(jitMayJudge(sent, types, JIT_COERCION_MAX_VALUES)).toBe(false);
    // an empty list where a list is expected is fine for both, and judged by graphql-jit alone
    const bare = { pod: { tolerations: [] } };
    expect(getVariableValues(schema, operation.variableDefinitions!, bare).errors).toBeUndefined();
    expect(coerceByJit(bare).errors).toBeUndefined();
    expect(jitMayJudge(bare, types, JIT_COERCION_MAX_VALUES)).toBe(true);
  });
});
