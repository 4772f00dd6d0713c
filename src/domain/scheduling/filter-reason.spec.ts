import { FILTER_PLUGINS } from './filter-reason';

describe('FILTER_PLUGINS', () => {
  it.each([
    {
      description: 'B.4.3 filter plugins in upstream default order',
      expected: ['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit'],
    },
  ])('$description', ({ expected }) => {
    expect(FILTER_PLUGINS).toEqual(expected);
  });
});
