import { classifyTaintArgs, isTaintSpecArg } from './classify-taint-args';

describe('classifyTaintArgs (SEMANTICS B.3.1, kubectl TaintOptions.Complete/Validate)', () => {
  it.each([
    { description: 'B.3.1 nodes then one taint', args: ['nodes', 'n1', 'k=v:NoSchedule'], expected: { nodes: ['n1'], taintSpecs: ['k=v:NoSchedule'] } },
    { description: 'B.3.1 node/name form', args: ['node/n1', 'node/n2', 'k:NoExecute', 'old-'], expected: { nodes: ['n1', 'n2'], taintSpecs: ['k:NoExecute', 'old-'] } },
    { description: 'B.3.1 several names and specs', args: ['node', 'a', 'b', 'k=v:NoSchedule', 'x:PreferNoSchedule-'], expected: { nodes: ['a', 'b'], taintSpecs: ['k=v:NoSchedule', 'x:PreferNoSchedule-'] } },
    { description: 'B.3.1 --all', args: ['nodes', '--all', 'k=v:NoSchedule'], expected: { nodes: 'all', taintSpecs: ['k=v:NoSchedule'] } },
    { description: 'B.3.1 -l selector', args: ['nodes', '-l', 'pool=gpu', 'k=v:NoSchedule'], expected: { nodes: { labelSelector: 'pool=gpu' }, taintSpecs: ['k=v:NoSchedule'] } },
    { description: 'B.3.1 --selector= and --overwrite', args: ['no', '--selector=pool=gpu', '--overwrite', 'k=v:NoSchedule'], expected: { nodes: { labelSelector: 'pool=gpu' }, taintSpecs: ['k=v:NoSchedule'] } },
  ])('$description', ({ args, expected }) => {
    expect(classifyTaintArgs(args)).toEqual(expected);
  });

  it.each([
    { description: 'B.3.1 resources must precede taint changes', args: ['nodes', 'k=v:NoSchedule', 'n1'], message: 'all resources must be specified before taint changes: n1' },
    { description: 'B.3.1 at least one taint', args: ['nodes', 'n1'], message: 'at least one taint update is required' },
    { description: 'B.3.1 at least one resource', args: ['k=v:NoSchedule'], message: 'one or more resources must be specified as <resource> <name>' },
    { description: 'B.3.1 a kind without names', args: ['nodes', 'k=v:NoSchedule'], message: 'one or more resources must be specified as <resource> <name>' },
    { description: 'B.3.1 only nodes', args: ['pods', 'p1', 'k=v:NoSchedule'], message: 'invalid resource type pods, only node types are supported' },
    { description: 'B.3.1 --all and -l are exclusive', args: ['nodes', '--all', '-l', 'a=b', 'k=v:NoSchedule'], message: "setting 'all' parameter with a label selector is not allowed" },
  ])('$description', ({ args, message }) => {
    expect(() => classifyTaintArgs(args)).toThrow(message);
  });

  it.each([
    { arg: 'k=v', spec: true }, { arg: 'k:NoSchedule', spec: true }, { arg: 'k-', spec: true }, { arg: 'node-1', spec: false }, { arg: 'node-', spec: true },
  ])('B.3.1 "$arg" is a taint spec: $spec', ({ arg, spec }) => {
    expect(isTaintSpecArg(arg)).toBe(spec);
  });
});
