import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure } from './report';
import { http } from './lib/http';
import { Service, sleep } from './lib/service';
import { createStorage, type ModeName, type StorageSettings } from './lib/storage';
import { WatchSource } from './lib/watch-source';

/**
 * Issue 14: a mirror following a cluster. Both scenarios start a SECOND service (the mirror) on its own storage
 * of the same mode, with SYNC_KUBECONFIG naming the cluster (a kubeconfig written here: plain http, which
 * client-node accepts only with insecure-skip-tls-verify).
 *
 * - initial sync: the cluster is the bench's own service with the whole inventory, through its Kubernetes API;
 *   spawn → /readyz 200 (the first list of nodes, pods and budgets stored), and the mirror's own figure
 *   (taintwise_sync_initial_sync_seconds).
 * - watch lag: the cluster is lib/watch-source.ts (1,000 MODIFIED pod events/s on demand); lag = a watch event
 *   arriving at the mirror → its change committed and in the snapshot (taintwise_sync_event_apply_lag_window_seconds
 *   quantiles over the last 60 s), with the number of transactions it took.
 */
export interface MirrorSettings extends StorageSettings {
  serviceDir: string;
  serviceEntry?: string;
  watchRate: number;
  watchSeconds: number;
  /** Experiments only (bench/experiments/mirror-sync.ts): extra node flags and settings for the mirror. */
  mirrorNodeArgs?: string[];
  mirrorEnv?: Record<string, string>;
}

function kubeconfig(dir: string, server: string): string {
  const path = join(dir, 'kubeconfig');
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: bench`,
      `  cluster: { server: "${server}", insecure-skip-tls-verify: true }`,
      'users:',
      '- name: bench',
      '  user: {}',
      'contexts:',
      '- name: bench',
      '  context: { cluster: bench, user: bench }',
      'current-context: bench',
      '',
    ].join('\n'),
  );
  return path;
}

async function metricsOf(service: Service): Promise<string> {
  return (await http<string>(service.url, 'GET', '/metrics')).text;
}

function metric(text: string, pattern: RegExp): number | undefined {
  const m = pattern.exec(text);
  return m ? Number(m[1]) : undefined;
}

export async function measureMirrorInitialSync(
  mode: ModeName,
  cluster: Service,
  s: MirrorSettings,
  expected: { nodes: number; pods: number },
): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), 'taintwise-bench-mirror-'));
  const storage = await createStorage(mode, s);
  let mirror: Service | undefined;
  try {
    const started = await Service.start({
      cwd: s.serviceDir,
      entry: s.serviceEntry,
      env: { ...s.mirrorEnv, ...storage.env, SYNC_KUBECONFIG: kubeconfig(dir, cluster.url) },
      nodeArgs: s.mirrorNodeArgs,
      timeoutMs: 20 * 60_000,
    });
    mirror = started.service;
    const text = await metricsOf(mirror);
    const history = await http<any>(mirror.url, 'GET', '/v1/events/history?types=SyncStarted');
    const listed = history.body?.items?.[0]?.data?.listed ?? {};
    const figure: Figure = {
      status: 'ok',
      readyMs: started.readyMs,
      syncSeconds: metric(text, /^taintwise_sync_initial_sync_seconds ([0-9.e+-]+)$/m),
      nodes: listed.nodes?.listed,
      pods: listed.pods?.listed,
      budgets: listed.budgets?.listed,
      // the mirror's CPU (user + system) from spawn to here: on a loaded machine, steadier than the wall clock
      cpuSeconds: mirror.cpuSeconds(),
    };
    if (figure.nodes !== expected.nodes || figure.pods !== expected.pods)
      figure.note = `listed ${figure.nodes} nodes / ${figure.pods} pods, the cluster has ${expected.nodes} / ${expected.pods}`;
    await mirror.stop();
    return figure;
  } catch (e) {
    return { status: 'error', note: e instanceof Error ? e.message : String(e) };
  } finally {
    if (mirror && mirror.exitCode === undefined) await mirror.stop().catch(() => undefined);
    await storage.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureMirrorWatchLag(mode: ModeName, s: MirrorSettings): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), 'taintwise-bench-mirror-'));
  const storage = await createStorage(mode, s);
  const source = await WatchSource.start(100, 2000);
  let mirror: Service | undefined;
  try {
    const started = await Service.start({
      cwd: s.serviceDir,
      entry: s.serviceEntry,
      env: { ...storage.env, SYNC_KUBECONFIG: kubeconfig(dir, source.url) },
    });
    mirror = started.service;
    for (let i = 0; i < 200 && source.watching === 0; i++) await sleep(50);
    const before = await metricsOf(mirror);
    const batchesBefore = metric(before, /^taintwise_sync_batches_total ([0-9.e+-]+)$/m) ?? 0;
    const sent = await source.stream(s.watchRate, s.watchSeconds);
    const eventsApplied = () =>
      metricsOf(mirror!).then(
        (t) => metric(t, /^taintwise_sync_events_applied_total\{resource="pods",type="upsert"\} ([0-9.e+-]+)$/m) ?? 0,
      );
    const deadline = performance.now() + 60_000;
    while ((await eventsApplied()) < sent && performance.now() < deadline) await sleep(100);
    const text = await metricsOf(mirror);
    const q = (p: string) =>
      metric(
        text,
        new RegExp(`^taintwise_sync_event_apply_lag_window_seconds\\{quantile="${p}"\\} ([0-9.e+-]+)$`, 'm'),
      );
    const applied = await eventsApplied();
    const figure: Figure = {
      status: 'ok',
      rate: s.watchRate,
      seconds: s.watchSeconds,
      sent,
      applied,
      transactions: (metric(text, /^taintwise_sync_batches_total ([0-9.e+-]+)$/m) ?? 0) - batchesBefore,
      lagMs: {
        p50: (q('0.5') ?? NaN) * 1000,
        p90: (q('0.9') ?? NaN) * 1000,
        p99: (q('0.99') ?? NaN) * 1000,
        max: (q('1') ?? NaN) * 1000,
      },
    };
    if (applied < sent) figure.note = `${sent - applied} of ${sent} events not applied within 60 s after the stream`;
    await mirror.stop();
    return figure;
  } catch (e) {
    return { status: 'error', note: e instanceof Error ? e.message : String(e) };
  } finally {
    if (mirror && mirror.exitCode === undefined) await mirror.stop().catch(() => undefined);
    await source.close();
    await storage.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}
