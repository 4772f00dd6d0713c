import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { EXAMPLE_QUERY } from '../../src/graphql/explorer';
import { startTestApp, type TestApp } from '../support/test-app';

// Issue 2 and issue 4: a new user opens /graphql in a browser, with no internet, and gets a ranked,
// explained answer from the ready-made example query. Debian's Chromium (never a downloaded one),
// every request that does not go to the service itself blocked and recorded.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = join(__dirname, '..', '..', 'test-results', 'explorer.png');

async function seed(app: TestApp): Promise<void> {
  const allocatable = { cpu: '8', memory: '32Gi', pods: '110' };
  const nodes: Array<[string, Record<string, unknown>]> = [
    ['gpu-1', { labels: { pool: 'gpu' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], allocatable: { ...allocatable, 'nvidia.com/gpu': '4' } }],
    ['gpu-2', { labels: { pool: 'gpu' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'spot', effect: 'PreferNoSchedule' }], allocatable }],
    ['general-1', { labels: { pool: 'general' }, allocatable }],
    ['infra-1', { labels: { pool: 'infra' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], allocatable }],
    ['old-1', { labels: { pool: 'general' }, unschedulable: true, allocatable }],
  ];
  for (const [name, body] of nodes) {
    const r = await app.request('PUT', `/v1/nodes/${name}`, { name, ...body });
    if (r.status !== 201) throw new Error(`seeding ${name}: ${r.status} ${r.text}`);
  }
}

describe('GraphQL explorer in a browser (embedded)', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startTestApp('embedded');
    await seed(app);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('the example query is valid against the schema and answers feasible nodes', async () => {
    const r = await app.graphql(EXAMPLE_QUERY);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.feasibleNodes).toMatchObject({ totalNodes: 5, feasibleCount: 3 });
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
    await result.getByText('node(s) had untolerated taint').first().waitFor({ timeout: 10_000 });
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    // The result pane is an editor: spaces render as no-break spaces and long lines wrap (with a · mark).
    const text = (await result.innerText()).replace(/[\s\u00a0·]+/g, '');
    const squeeze = (s: string) => s.replace(/\s+/g, '');
    expect(text).toContain(squeeze('"totalNodes": 5, "feasibleCount": 3'));
    expect(text).toContain(squeeze('"message": "3/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable."'));
    expect(text).toContain(squeeze('{ "name": "general-1", "feasible": true, "score": 100, "scores": { "TaintToleration": 100, "NodeAffinity": 0 }'));

    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
