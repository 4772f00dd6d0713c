import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { EXAMPLE_QUERY } from '../../src/kernel/graphql/explorer';
import { startTestApp, type TestApp } from '../support/test-app';

// Issue 2 and issue 4: a new user opens /graphql in a browser, with no internet, and gets a ranked,
// explained answer from the ready-made example query. Debian's Chromium (never a downloaded one),
// every request that does not go to the service itself blocked and recorded.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = join(__dirname, '..', '..', 'test-results', 'explorer.png');

/** README "Try it": the example cluster imported exactly as the README's curl sends it. */
async function importExampleCluster(app: TestApp): Promise<void> {
  const body = readFileSync(join(__dirname, '..', 'fixtures', 'clusters', 'small-cluster.json'), 'utf8');
  const r = await app.request('POST', '/v1/import', body, { 'content-type': 'application/json' });
  if (r.status !== 200 || r.body.errors?.length)
    throw new Error(`importing the example cluster: ${r.status} ${r.text}`);
}

/** The answer to the example query over the example cluster (7 nodes; gpu-1's one GPU is taken). */
const EXPECTED_MESSAGE =
  '1/7 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable, ' +
  '2 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint {kubernetes.azure.com/scalesetpriority: spot}.';

describe('GraphQL explorer in a browser (embedded)', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startTestApp('embedded');
    await importExampleCluster(app);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('the example query is valid against the schema and answers feasible nodes', async () => {
    const r = await app.graphql(EXAMPLE_QUERY);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.feasibleNodes).toMatchObject({ totalNodes: 7, feasibleCount: 1, message: EXPECTED_MESSAGE });
    const nodes = r.body.data.feasibleNodes.nodes;
    expect(nodes[0]).toMatchObject({ name: 'gpu-2', feasible: true, reasons: null });
    expect(nodes.find((n: { name: string }) => n.name === 'gpu-1')).toMatchObject({
      feasible: false,
      reasons: [{ plugin: 'NodeResourcesFit', message: 'Insufficient nvidia.com/gpu', resource: 'nvidia.com/gpu' }],
    });
  });

  it('the follow-ups its comments suggest work on the example cluster as written', async () => {
    const byRef = await app.graphql(
      EXAMPLE_QUERY.replace(
        /pod: \{[\s\S]*?\n {4}\}\n/,
        'podRef: { namespace: "shop", name: "web-5f8d9c7b6-pz4rt" }\n',
      ),
    );
    expect(byRef.body.errors).toBeUndefined();
    // The pending web pod fits only on worker-1 (README of the fixtures).
    expect(byRef.body.data.feasibleNodes).toMatchObject({ totalNodes: 7, feasibleCount: 1 });
    expect(byRef.body.data.feasibleNodes.nodes[0]).toMatchObject({ name: 'worker-1', feasible: true });
    const impact = await app.graphql(
      '{ taintImpact(taints: ["maintenance=true:NoExecute"], nodes: ["worker-1"]) { evictions { pod { name } action evictAt } } }',
    );
    expect(impact.body.errors).toBeUndefined();
    // worker-1's bound, running pods: none tolerates maintenance, so all go now (the Succeeded db-migrate pod is not
    // running).
    expect(
      impact.body.data.taintImpact.evictions
        .map((e: { pod: { name: string }; action: string }) => `${e.pod.name}:${e.action}`)
        .sort(),
    ).toEqual(['coredns-7db6d8ff4d-5xk2p:EvictNow', 'web-5f8d9c7b6-k7vnm:EvictNow']);
  });

  it('opens offline, runs the example query and shows a ranked, explained answer', async () => {
    const context = await browser.newContext({ viewport: { width: 1500, height: 1400 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const outside: string[] = [];
    const local = (url: string) => {
      const { protocol, hostname } = new URL(url);
      return protocol === 'data:' || protocol === 'blob:' || protocol === 'about:' || hostname === '127.0.0.1';
    };
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (local(url)) return route.continue();
      outside.push(url);
      return route.abort('blockedbyclient');
    });
    page.on('websocket', (ws) => {
      if (!local(ws.url().replace(/^ws/, 'http'))) outside.push(ws.url());
    });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));

    const response = await page.goto(`${app.url}/graphql`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('text/html');
    expect(await page.title()).toBe('taintwise GraphQL explorer');

    // The editor holds the example query; run it with the execute button.
    await page.locator('.graphiql-query-editor').getByText('FeasibleNodesForPod').first().waitFor({ timeout: 60_000 });
    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.graphiql-response');
    await result.getByText('feasibleCount').first().waitFor({ timeout: 30_000 });
    await result.getByText('Insufficient nvidia.com/gpu').first().waitFor({ timeout: 10_000 });
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    // The result pane is an editor: spaces render as no-break spaces and long lines wrap (with a · mark).
    const text = (await result.innerText()).replace(/[\s\u00a0·]+/g, '');
    const squeeze = (s: string) => s.replace(/\s+/g, '');
    expect(text).toContain(squeeze('"totalNodes": 7, "feasibleCount": 1'));
    expect(text).toContain(squeeze(`"message": "${EXPECTED_MESSAGE}"`));
    expect(text).toContain(squeeze('{ "name": "gpu-2", "feasible": true, "score":'));

    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
