import { AppError } from '../errors/app-error';
import { parseLabelSelector } from '../../domain/label-selector/parse-label-selector';

/** `?labelSelector=` in Kubernetes syntax; absent or empty selects everything. Bad syntax is a 400. */
export function compileLabelSelector(selector: string | undefined): (labels: Record<string, string>) => boolean {
  // A query string may repeat the parameter (`?labelSelector=a&labelSelector=b` arrives as an array).
  if (selector !== undefined && typeof selector !== 'string') {
    throw new AppError('BadRequest', 'labelSelector must be given once, as one string (join requirements with ",")', [
      { field: 'labelSelector', type: 'Invalid value', message: 'Invalid value: given more than once' },
    ]);
  }
  if (selector === undefined || selector.trim() === '') return () => true;
  return parseLabelSelector(selector); // a LabelSelectorError leaves through toAppError as a 400
}
