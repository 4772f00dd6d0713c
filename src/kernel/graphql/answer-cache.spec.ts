import { answerText } from './answer-cache';

// answerText is Apollo's stringifyResult here: for everything this cache did not answer it must write what
// Apollo's own serialiser writes (@apollo/server's prettyJSONStringify: `JSON.stringify(value) + '\n'`).
describe('answerText writes what Apollo writes', () => {
  it.each([
    ['data only', { data: { feasibleNodes: { totalNodes: 2, message: 'a "quoted" \u2028 text' } } }],
    ['errors and null data', { errors: [{ message: 'no', extensions: { code: 'NOT_FOUND' } }], data: null }],
    ['undefined fields left out', { errors: undefined, data: { a: [1, 2] }, extensions: undefined }],
    ['extensions', { data: { a: 1 }, extensions: { cost: 3 } }],
    ['empty', {}],
  ])('%s', (_name, value) => {
    expect(answerText(value)).toBe(`${JSON.stringify(value)}\n`);
  });
});
