import { AppError } from '../kernel/errors/app-error';
import { compileFieldSelector, parseFieldSelector, pinnedValue } from './field-selector';

// apimachinery pkg/fields/selector.go ParseSelector: `=`, `==`, `!=`, comma-joined, backslash escapes.
describe('field selectors', () => {
  it.each([
    ['', []],
    ['spec.nodeName=n1', [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]],
    ['spec.nodeName==n1', [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]],
    [
      'status.phase!=Running,spec.nodeName=',
      [
        { field: 'status.phase', operator: '!=', value: 'Running' },
        { field: 'spec.nodeName', operator: '=', value: '' },
      ],
    ],
    ['metadata.name=a\\,b', [{ field: 'metadata.name', operator: '=', value: 'a,b' }]],
  ])('parses %j', (selector, expected) => {
    expect(parseFieldSelector(selector)).toEqual(expected);
  });

  it.each([['nofield'], ['a']])('refuses %j', (selector) => {
    expect(() => parseFieldSelector(selector)).toThrow(AppError);
  });

  it.each([
    ['metadata.name=n1', { 'metadata.name': 'n1' }, true],
    ['metadata.name!=n1', { 'metadata.name': 'n1' }, false],
    ['metadata.name=n1,spec.unschedulable=true', { 'metadata.name': 'n1', 'spec.unschedulable': 'false' }, false],
  ])('%s on %j is %s', (selector, fields, expected) => {
    expect(compileFieldSelector(selector, ['metadata.name', 'spec.unschedulable'])(fields)).toBe(expected);
  });

  it('an unsupported field is the API server 400', () => {
    expect(() => compileFieldSelector('spec.podCIDR=x', ['metadata.name'])).toThrow(
      'field label not supported: spec.podCIDR',
    );
  });

  it('pinnedValue finds an equality on a field', () => {
    expect(pinnedValue('spec.nodeName=n1,status.phase!=Failed', 'spec.nodeName')).toBe('n1');
    expect(pinnedValue('spec.nodeName!=n1', 'spec.nodeName')).toBeUndefined();
  });
});
