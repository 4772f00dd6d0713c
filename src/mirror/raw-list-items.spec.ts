import { ResponseContext } from '@kubernetes/client-node';
import { rawListItems, type RawItemsSink } from './raw-list-items';

const respond = (status: number, body: string) =>
  new ResponseContext(
    status,
    { 'content-type': 'application/json' },
    {
      text: () => Promise.resolve(body),
      binary: () => Promise.resolve(Buffer.from(body)),
    },
  );

const post = (sink: RawItemsSink, response: ResponseContext) =>
  (
    rawListItems(sink).middleware![0] as unknown as {
      post(r: ResponseContext): { toPromise(): Promise<ResponseContext> };
    }
  )
    .post(response)
    .toPromise();

describe('rawListItems', () => {
  it('keeps the items as the server sent them and hands client-node the list without them', async () => {
    const sink: RawItemsSink = { items: [] };
    const list = {
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '42', continue: 'next' },
      items: [{ metadata: { name: 'a', creationTimestamp: '2026-11-20T10:00:00Z' }, spec: { unknownField: 1 } }],
    };
    const out = await post(sink, respond(200, JSON.stringify(list)));
    // wire JSON: the time stays a string, fields client-node's models do not know stay
    expect(sink.items).toEqual(list.items);
    expect(JSON.parse(await out.body.text())).toEqual({ ...list, items: [] });
    expect(out.httpStatusCode).toBe(200);
  });

  it('leaves an error answer to client-node (its ApiException)', async () => {
    const sink: RawItemsSink = { items: [] };
    const gone = respond(410, '{"kind":"Status","code":410}');
    expect(await post(sink, gone)).toBe(gone);
    expect(sink.items).toEqual([]);
  });

  it('is a middleware client-node appends to its own', () => {
    const options = rawListItems({ items: [] });
    expect(options.middlewareMergeStrategy).toBe('append');
    expect(options.middleware).toHaveLength(1);
  });
});
