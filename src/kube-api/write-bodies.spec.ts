import { AppError } from '../kernel/errors/app-error';
import { nodeWriteBody } from './node-body';
import { podWriteBody } from './pod-body';

// A manifest of the wrong kind is refused in plain words, whatever the kind holds (found by the fuzzer: an
// array kind was echoed as "[object Object],…").
describe('write bodies of the wrong kind', () => {
  it.each([
    { description: 'a Pod sent as a Node', kind: 'Pod' as unknown },
    { description: 'an array for kind', kind: [{ key: 'k0', effect: 'NoSchedule' }] as unknown },
    { description: 'a number for kind', kind: 7 as unknown },
  ])('$description', ({ kind }) => {
    const node = () => nodeWriteBody({ apiVersion: 'v1', kind, metadata: { name: 'n1' } }, 'n1');
    const pod = () =>
      podWriteBody({ apiVersion: 'v1', kind: kind === 'Pod' ? 'Node' : kind, metadata: { name: 'p' } }, 'ns', 'p');
    expect(node).toThrow(AppError);
    expect(node).toThrow('the body\'s kind must be "Node"');
    expect(pod).toThrow('the body\'s kind must be "Pod"');
  });
});
