import { parseJsonBody, type ParserDone } from './json-body';

/** What `done` was called with, each time. */
function recorder(): { done: ParserDone; calls: Array<{ error: Error | null; body?: unknown }> } {
  const calls: Array<{ error: Error | null; body?: unknown }> = [];
  return { done: (error, body) => void calls.push({ error, body }), calls };
}

describe('parseJsonBody', () => {
  it.each([
    ['an object', '{"pod":{"tolerations":[]}}', { pod: { tolerations: [] } }],
    ['an array', '[1,"a",null]', [1, 'a', null]],
    ['a scalar', '42', 42],
    ['an empty body', '', undefined],
    ['a blank body', ' \n\t ', undefined],
  ])('reads %s', (_what, text, expected) => {
    const { done, calls } = recorder();
    parseJsonBody(text, done);
    expect(calls).toEqual([{ error: null, body: expected }]);
  });

  it.each([
    ['malformed JSON', '{"pod":'],
    ['a __proto__ key (prototype poisoning)', '{"pod":{"__proto__":{"admin":true}}}'],
    ['a constructor key (prototype poisoning)', '{"constructor":{"prototype":{"admin":true}}}'],
    ['an escaped __proto__ key', '{"\\u005f_proto__":{}}'],
  ])('refuses %s as Fastify does (FST_ERR_CTP_INVALID_JSON_BODY, 400)', (_what, text) => {
    const { done, calls } = recorder();
    parseJsonBody(text, done);
    expect(calls).toHaveLength(1);
    expect(calls[0].error).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 });
    expect(calls[0].body).toBeUndefined();
  });

  it('calls done outside its try: a throw from the handler chain is not reported as a malformed body', () => {
    const calls: Array<Error | null> = [];
    const thrown = new Error('thrown by a handler downstream');
    const done: ParserDone = (error) => {
      calls.push(error);
      if (error === null) throw thrown;
    };
    expect(() => parseJsonBody('{"a":1}', done)).toThrow(thrown);
    expect(calls).toEqual([null]);
  });
});
