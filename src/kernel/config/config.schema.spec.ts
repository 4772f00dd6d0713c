import { loadConfig, ConfigError } from './config.schema';

const key = 'a'.repeat(64);
const cases = [
  {
    description: 'defaults on an empty environment',
    env: {},
    check: (c: ReturnType<typeof loadConfig>) =>
      c.PORT === 3000 &&
      c.HOST === '0.0.0.0' &&
      c.DATA_DIR === './.data' &&
      c.COMPARISON_OPERATORS &&
      c.DATABASE_URL === undefined,
  },
  {
    description: 'COMPARISON_OPERATORS=false turns the gate off (SEMANTICS A.1)',
    env: { COMPARISON_OPERATORS: 'false' },
    check: (c: ReturnType<typeof loadConfig>) => c.COMPARISON_OPERATORS === false,
  },
  {
    description: 'API_KEYS entries are parsed',
    env: { API_KEYS: `ops:operator:${key}, root:admin:${key}` },
    check: (c: ReturnType<typeof loadConfig>) => c.API_KEYS.length === 2,
  },
  {
    description: 'an empty DATABASE_URL means embedded',
    env: { DATABASE_URL: '' },
    check: (c: ReturnType<typeof loadConfig>) => c.DATABASE_URL === undefined,
  },
];

const bad = [
  { description: 'PORT not a number', env: { PORT: 'eighty' }, names: 'PORT' },
  { description: 'PORT out of range', env: { PORT: '70000' }, names: 'PORT' },
  { description: 'DATABASE_URL with a wrong scheme', env: { DATABASE_URL: 'mysql://x' }, names: 'DATABASE_URL' },
  { description: 'REDIS_URL with a wrong scheme', env: { REDIS_URL: 'http://x' }, names: 'REDIS_URL' },
  { description: 'a malformed API key entry', env: { API_KEYS: 'ops:root:abc' }, names: 'API_KEYS' },
  { description: 'a boolean that is not one', env: { COMPARISON_OPERATORS: 'maybe' }, names: 'COMPARISON_OPERATORS' },
  { description: 'production without keys', env: { NODE_ENV: 'production' }, names: 'API_KEYS' },
];

describe('loadConfig', () => {
  it.each(cases)('$description', ({ env, check }) => {
    expect(check(loadConfig(env))).toBe(true);
  });
  it.each(bad)('rejects $description, naming the variable', ({ env, names }) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${names}:`));
  });
});

describe('observability settings', () => {
  it('records GC pauses by default and keeps the bench routes off', () => {
    const config = loadConfig({});
    expect(config.METRICS_GC_PAUSES).toBe(true);
    expect(config.BENCH_OPS_ROUTES).toBe(false);
  });

  it('refuses the bench routes in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', API_KEYS: `a:admin:${'0'.repeat(64)}`, BENCH_OPS_ROUTES: 'true' }),
    ).toThrow(/BENCH_OPS_ROUTES: a bench-only setting/);
  });
});

describe('mirror settings (README "Mirror a cluster")', () => {
  it.each([
    [{}, { SYNC_WRITE: false, SYNC_BATCH_MAX: 1000, SYNC_FORECAST_GRACE_SECONDS: 60 }],
    [{ SYNC_KUBECONFIG: '', SYNC_CONTEXT: ' ' }, { SYNC_WRITE: false }],
    [
      { SYNC_KUBECONFIG: '/etc/kube/config', SYNC_CONTEXT: 'prod', SYNC_WRITE: 'true' },
      { SYNC_KUBECONFIG: '/etc/kube/config', SYNC_CONTEXT: 'prod', SYNC_WRITE: true },
    ],
  ])('%j', (env, expected) => {
    const config = loadConfig(env);
    expect(config).toMatchObject(expected);
    if (!('SYNC_KUBECONFIG' in expected)) expect(config.SYNC_KUBECONFIG).toBeUndefined();
    if (!('SYNC_CONTEXT' in expected)) expect(config.SYNC_CONTEXT).toBeUndefined();
  });

  it('refuses write-through without a cluster to write to', () => {
    expect(() => loadConfig({ SYNC_WRITE: 'true' })).toThrow(/SYNC_WRITE: needs SYNC_KUBECONFIG/);
  });

  it.each([{ SYNC_BATCH_MAX: '0' }, { SYNC_LIST_CHUNK: 'many' }, { SYNC_WRITE_TIMEOUT_MS: '5' }])(
    'rejects %j, naming the variable',
    (env) => {
      expect(() => loadConfig(env)).toThrow(new RegExp(Object.keys(env)[0]));
    },
  );
});
