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

// A value of the wrong JSON type in the parts of a Pod taintwise reads is a decode error (400), worded as the
// API server's decoder words it, never a quantity echoed as "[object Object]" (found by the fuzzer, seed
// 338066404: requests sent as an array).
describe('Pod bodies that do not decode', () => {
  const pod = (spec: unknown) => () =>
    podWriteBody({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }, 'ns', 'p');
  const handled = 'Pod in version "v1" cannot be handled as a Pod: ';
  it.each([
    {
      description: 'requests as an array',
      spec: { containers: [{ name: 'a', resources: { requests: [null, { extra: '}' }] } }] },
      message: `${handled}json: cannot unmarshal array into Go struct field ResourceRequirements.spec.containers.resources.requests of type v1.ResourceList`,
    },
    {
      description: 'limits as a string',
      spec: { initContainers: [{ name: 'a', resources: { limits: '1' } }] },
      message: `${handled}json: cannot unmarshal string into Go struct field ResourceRequirements.spec.initContainers.resources.limits of type v1.ResourceList`,
    },
    {
      description: 'resources as a number',
      spec: { containers: [{ name: 'a', resources: 3 }] },
      message: `${handled}json: cannot unmarshal number into Go struct field Container.spec.containers.resources of type v1.ResourceRequirements`,
    },
    {
      description: 'a container as a bool',
      spec: { containers: [true] },
      message: `${handled}json: cannot unmarshal bool into Go struct field PodSpec.spec.containers of type v1.Container`,
    },
    {
      description: 'containers as an object',
      spec: { containers: { name: 'a' } },
      message: `${handled}json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container`,
    },
    {
      description: 'overhead as an array',
      spec: { containers: [], overhead: ['1'] },
      message: `${handled}json: cannot unmarshal array into Go struct field PodSpec.spec.overhead of type v1.ResourceList`,
    },
    {
      description: 'a quantity as an object',
      spec: { containers: [{ name: 'a', resources: { requests: { cpu: { m: 1 } } } }] },
      message: `${handled}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    },
  ])('$description', ({ spec, message }) => {
    const write = pod(spec);
    expect(write).toThrow(AppError);
    expect(write).toThrow(message);
    try {
      write();
    } catch (e) {
      expect((e as AppError).kind).toBe('BadRequest');
    }
  });

  it('reads a number as its decimal text and null as Go\'s zero value (a null container is empty, a null quantity "0")', () => {
    const body = podWriteBody(
      {
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: {
          containers: [
            null,
            { name: 'a', resources: null },
            { name: 'b', resources: { requests: null, limits: { cpu: 1 } } },
          ],
          overhead: null,
        },
      },
      'ns',
      'p',
    );
    expect(body.resources).toEqual({ requests: { cpu: '1' } });
    const single = podWriteBody(
      {
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'a', resources: { requests: { cpu: 0.5, memory: null } } }] },
      },
      'ns',
      'p',
    );
    expect(single.resources).toEqual({ requests: { cpu: '0.5', memory: '0' } });
  });
});
