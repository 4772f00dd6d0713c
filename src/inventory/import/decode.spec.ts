import { decodeManifests, parserForContentType } from './decode';
import { decodeJsonStream, findJsonSyntaxError } from './json-stream';

describe('parserForContentType', () => {
  it.each([
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/vnd.kubernetes.protobuf+json', 'json'],
    ['application/yaml', 'yaml'],
    ['application/x-yaml', 'yaml'],
    ['text/yaml; charset=utf-8', 'yaml'],
    ['text/x-yaml', 'yaml'],
    ['application/octet-stream', undefined],
    ['application/x-www-form-urlencoded', undefined],
    ['text/plain', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (contentType, expected) => {
    expect(parserForContentType(contentType)).toBe(expected);
  });
});

describe('decodeManifests: picking the parser', () => {
  const list = { apiVersion: 'v1', kind: 'List', items: [{ kind: 'Node', metadata: { name: 'n1' } }] };

  it('reads JSON by Content-Type', () => {
    const result = decodeManifests(JSON.stringify(list), 'application/json');
    expect(result).toEqual({ documents: [list], errors: [], notes: [], format: 'json' });
  });

  it('reads YAML by Content-Type, several documents', () => {
    const body = 'kind: Node\nmetadata:\n  name: a\n---\nkind: Node\nmetadata:\n  name: b\n---\n';
    const result = decodeManifests(body, 'application/yaml');
    expect(result.errors).toEqual([]);
    expect(result.format).toBe('yaml');
    expect(result.documents).toEqual([
      { kind: 'Node', metadata: { name: 'a' } },
      { kind: 'Node', metadata: { name: 'b' } },
    ]);
  });

  it('sniffs JSON (after whitespace and a BOM) and YAML when the Content-Type says nothing useful', () => {
    expect(decodeManifests(`\uFEFF\n  ${JSON.stringify(list)}`, 'text/plain').format).toBe('json');
    expect(decodeManifests(Buffer.from(`\uFEFF${JSON.stringify(list)}`)).documents).toEqual([list]);
    expect(decodeManifests('apiVersion: v1\nkind: List\nitems: []\n').format).toBe('yaml');
    expect(decodeManifests('[{"kind":"Node","metadata":{"name":"n"}}]').format).toBe('json');
  });

  it('keeps timestamps and Kubernetes-quoted scalars as strings in YAML (core schema, no Date objects)', () => {
    const body = 'metadata:\n  creationTimestamp: 2021-04-07T22:18:17Z\n  labels:\n    a: "true"\n    b: "0"\n';
    const [doc] = decodeManifests(body, 'application/yaml').documents as Array<{ metadata: Record<string, unknown> }>;
    expect(doc.metadata.creationTimestamp).toBe('2021-04-07T22:18:17Z');
    expect(doc.metadata.labels).toEqual({ a: 'true', b: '0' });
  });

  it('reads a UTF-16LE body with a byte-order mark (what PowerShell redirection writes)', () => {
    const text = JSON.stringify(list);
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(decodeManifests(body).documents).toEqual([list]);
  });

  it('parses a JSON body as JSON even with a YAML Content-Type (JSON is YAML)', () => {
    expect(decodeManifests(JSON.stringify(list), 'application/yaml').documents).toEqual([list]);
  });
});

describe('decodeManifests: cluster-info dump streams', () => {
  const nodeList = { kind: 'NodeList', apiVersion: 'v1', items: [{ metadata: { name: 'n1' } }] };
  const podList = { kind: 'PodList', apiVersion: 'v1', items: [] };
  const pretty = (v: unknown) => JSON.stringify(v, null, 4);

  it('decodes concatenated JSON documents', () => {
    const result = decodeManifests(`${pretty(nodeList)}\n${pretty(podList)}\n`);
    expect(result.errors).toEqual([]);
    expect(result.format).toBe('json-stream');
    expect(result.documents).toEqual([nodeList, podList]);
  });

  it('skips container log blocks and decodes the JSON after them (the next namespace)', () => {
    const logs = [
      '==== START logs for container coredns of pod kube-system/coredns-1 ====',
      '[INFO] plugin/reload: Running configuration SHA512 = {"not": "a document"}',
      '{"level":"info","msg":"a JSON log line that starts a line"}',
      '==== END logs for container coredns of pod kube-system/coredns-1 ====',
      '==== START logs for container x of pod kube-system/y ====',
      'Create log request error: container x is waiting to start==== END logs for container x of pod kube-system/y ====',
    ].join('\n');
    const result = decodeManifests(`${pretty(nodeList)}\n${logs}\n${pretty(podList)}\n`);
    expect(result.errors).toEqual([]);
    expect(result.documents).toEqual([nodeList, podList]);
    expect(result.notes).toEqual([expect.stringMatching(/^skipped 2 container log block\(s\)/)]);
  });

  it('stops cleanly at other non-JSON text and says so in a note', () => {
    const result = decodeManifests(`${pretty(nodeList)}\nWarning: something the tool printed\n${pretty(podList)}`);
    expect(result.errors).toEqual([]);
    expect(result.documents).toEqual([nodeList]);
    expect(result.notes).toEqual([
      expect.stringMatching(/^stopped at line 12 \(non-JSON text "Warning: something the tool printed"\)/),
    ]);
  });

  it('stops at a log block that never ends, with a note', () => {
    const result = decodeManifests(`${pretty(nodeList)}\n==== START logs for container a of pod b/c ====\nhalf a log`);
    expect(result.errors).toEqual([]);
    expect(result.documents).toEqual([nodeList]);
    expect(result.notes[0]).toMatch(/has no END marker/);
  });

  it('reports text that can only be broken JSON as an error, not a note', () => {
    const result = decodeManifests('{"kind":"NodeList","items":[]}}');
    expect(result.errors).toEqual([
      expect.objectContaining({
        kind: 'Document',
        message: "invalid JSON at line 1, column 31: unexpected '}' after the end of JSON document 1",
        position: { offset: 30, line: 1, column: 31 },
      }),
    ]);
  });
});

describe('decodeManifests: malformed input gives one clear error with its position', () => {
  it.each([
    [
      'an empty body',
      '',
      undefined,
      'the body is empty: expected a Kubernetes List, NodeList or PodList (JSON or YAML)',
    ],
    [
      'only whitespace',
      ' \n\t\n',
      'application/json',
      'the body is empty: expected a Kubernetes List, NodeList or PodList (JSON or YAML)',
    ],
    [
      'truncated JSON',
      '{"kind": "List", "items": [{"kind": "Node"',
      undefined,
      'invalid JSON at line 1, column 43: unexpected end of input: 3 unclosed bracket(s) (truncated JSON?)',
    ],
    [
      'truncated inside a string',
      '{"kind": "List", "items": [{"kind": "No',
      undefined,
      'invalid JSON at line 1, column 40: unexpected end of input: the string opened at offset 36 is not closed (truncated JSON?)',
    ],
    [
      'a trailing comma',
      '{\n  "kind": "List",\n  "items": [],\n}',
      undefined,
      "invalid JSON at line 4, column 1: expected a double-quoted property name but found '}'",
    ],
    [
      'a bare word',
      '{"kind": List}',
      undefined,
      "invalid JSON at line 1, column 10: unexpected 'L': expected a value (object, array, string, number, true, false or null)",
    ],
    [
      'a mismatched bracket',
      '{"items": [1, 2}',
      undefined,
      "invalid JSON at line 1, column 16: expected ']' but found '}'",
    ],
    [
      'a raw newline in a string',
      '{"a": "x\ny"}',
      undefined,
      'invalid JSON at line 1, column 9: control character U+000a in a string (opened at offset 6) must be escaped',
    ],
    [
      'a YAML syntax error',
      'kind: List\nitems:\n  - name: [a, b\n  - other\n',
      undefined,
      /^invalid YAML at line 4, column \d+: /,
    ],
    [
      'YAML with a tab indentation',
      'kind: List\nitems:\n\t- a\n',
      'application/yaml',
      /^invalid YAML at line 3, column 1: /,
    ],
    [
      'YAML sent as JSON',
      'kind: List\nitems: []\n',
      'application/json',
      "invalid JSON at line 1, column 1: unexpected 'k': expected a value (object, array, string, number, true, false or null) (the Content-Type is application/json; send YAML as application/yaml)",
    ],
    [
      'a number (JSON)',
      '42',
      'application/json',
      'document 1 is a number; expected a Kubernetes object (List, NodeList, PodList, Node or Pod)',
    ],
    [
      'a number (sniffed: YAML)',
      '42',
      undefined,
      'document 1 is a number; expected a Kubernetes object (List, NodeList, PodList, Node or Pod)',
    ],
    [
      'a string',
      '"hello"',
      'application/json',
      'document 1 is a string; expected a Kubernetes object (List, NodeList, PodList, Node or Pod)',
    ],
    [
      'null',
      'null',
      'application/json',
      'document 1 is null; expected a Kubernetes object (List, NodeList, PodList, Node or Pod)',
    ],
    [
      'plain text',
      'hello world',
      undefined,
      'document 1 is a string; expected a Kubernetes object (List, NodeList, PodList, Node or Pod)',
    ],
    [
      'only YAML comments',
      '# nothing here\n---\n',
      undefined,
      'the body holds no YAML document (only comments or separators)',
    ],
    [
      'items that are not an array',
      '{"kind":"PodList","items":"x"}',
      undefined,
      'document 1 (PodList): items must be an array, not a string',
    ],
    [
      'items that are an object (YAML)',
      'kind: NodeList\nitems:\n  a: 1\n',
      undefined,
      'document 1 (NodeList): items must be an array, not an object',
    ],
    ['a non-string kind', '{"kind": 7}', undefined, 'document 1: kind must be a string, not a number'],
  ])('%s', (_label, body, contentType, expected) => {
    const result = decodeManifests(body, contentType);
    expect(result.errors).toHaveLength(1);
    if (typeof expected === 'string') expect(result.errors[0].message).toBe(expected);
    else expect(result.errors[0].message).toMatch(expected);
  });

  it("gives the second document's error in a stream with its own line", () => {
    const result = decodeManifests('{"kind":"NodeList","items":[]}\n{"kind":"PodList","items":[1,]}');
    expect(result.documents).toHaveLength(1);
    expect(result.errors).toEqual([
      expect.objectContaining({ index: 1, position: { offset: 60, line: 2, column: 30 } }),
    ]);
  });

  it('rejects bytes that are not UTF-8', () => {
    const result = decodeManifests(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    expect(result.errors[0].message).toBe('the body is not valid UTF-8 (nor UTF-16 with a byte-order mark)');
  });
});

describe('json-stream', () => {
  it('findJsonSyntaxError accepts what JSON.parse accepts', () => {
    for (const text of ['{}', '[]', '{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n"]}', ' [ {} , [ ] ] ']) {
      expect(findJsonSyntaxError(text, 0, text.length)).toBeUndefined();
    }
  });

  it('decodeJsonStream keeps the offsets of the values', () => {
    const result = decodeJsonStream('{"a":1}\n  [2]');
    expect(result.values).toEqual([{ a: 1 }, [2]]);
    expect(result.offsets).toEqual([0, 10]);
  });

  it('handles escaped quotes and backslashes before a closing quote', () => {
    const text = '{"a":"x\\"}","b":"c\\\\"}{"d":"}"}';
    expect(decodeJsonStream(text).values).toEqual([{ a: 'x"}', b: 'c\\' }, { d: '}' }]);
  });
});

describe('decodeManifests: speed', () => {
  it('decodes a 10 MB kubectl List in well under a second', () => {
    const item = (i: number) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `pod-${i}`,
        namespace: 'default',
        labels: { app: 'web', 'pod-template-hash': 'abc123' },
        uid: `uid-${i}`,
      },
      spec: {
        nodeName: `node-${i % 50}`,
        containers: [
          { name: 'c', image: 'registry.example/web:1', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
        ],
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
      status: { phase: 'Running', startTime: '2025-01-01T00:00:00Z', message: 'x'.repeat(400) },
    });
    const items = [];
    let size = 0;
    for (let i = 0; size < 10 * 1024 * 1024; i++) {
      const it = item(i);
      size += JSON.stringify(it, null, 4).length;
      items.push(it);
    }
    const body = Buffer.from(
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 4),
    );
    expect(body.length).toBeGreaterThan(10 * 1024 * 1024);
    const start = performance.now();
    const result = decodeManifests(body, 'application/json');
    const elapsed = performance.now() - start;
    expect(result.errors).toEqual([]);
    expect((result.documents[0] as { items: unknown[] }).items).toHaveLength(items.length);
    // Typically ~100 ms on a shared 2-core machine; the bound leaves room for a slow CI runner.
    expect(elapsed).toBeLessThan(2000);
  });
});

describe('decodeManifests: hostile YAML', () => {
  it('refuses an alias bomb instead of expanding it', () => {
    const lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (let i = 1; i <= 9; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    lines.push('kind: Node', 'metadata:', '  name: boom', '  labels: *a9');
    const start = performance.now();
    const result = decodeManifests(lines.join('\n'), 'application/yaml');
    expect(performance.now() - start).toBeLessThan(1000);
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^the YAML expands to more than \d+ values through aliases/),
      }),
    ]);
  });

  it('accepts a few harmless aliases', () => {
    const body =
      'kind: Pod\nmetadata:\n  name: p\n  labels: &l {app: web}\nspec:\n  nodeSelector: *l\n  containers: []\n';
    expect(decodeManifests(body, 'application/yaml').errors).toEqual([]);
  });
});
