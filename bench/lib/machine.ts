import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { adminQuery, redisClient } from './storage';
import { REPO_ROOT } from './service';

export interface MachineInfo {
  nproc: number;
  memTotalGiB: number;
  cpuModel: string;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  let nproc = cpus().length;
  try {
    nproc = Number(execSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    // keep os.cpus()
  }
  const mem = /MemTotal:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1];
  return {
    nproc,
    memTotalGiB: Math.round((Number(mem) / 1024 / 1024) * 10) / 10,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadAverage: load(),
  };
}

export function load(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

export async function versions(postgresUrl: string, redisUrl: string): Promise<Record<string, string>> {
  const v: Record<string, string> = { node: process.version };
  try {
    v.npm = execSync('npm -v', { encoding: 'utf8' }).trim();
  } catch {
    v.npm = 'unknown';
  }
  const pkg = (name: string) => {
    try {
      return JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string;
    } catch {
      return 'unknown';
    }
  };
  v.pglite = pkg('@electric-sql/pglite');
  v.autocannon = pkg('autocannon');
  v.taintwise = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version;
  try {
    v.commit = execSync('git rev-parse --short HEAD', { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain -- src prisma', { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean).length;
    if (dirty) v.commit += ` + ${dirty} uncommitted file(s) under src/ and prisma/ (work in progress of the team)`;
  } catch {
    v.commit = 'unknown';
  }
  try {
    v.postgresql = String((await adminQuery(postgresUrl, 'SHOW server_version'))[0]?.server_version ?? 'unknown');
  } catch (e) {
    v.postgresql = `unreachable (${(e as Error).message})`;
  }
  const redis = redisClient(redisUrl);
  try {
    await redis.connect();
    v.redis = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } catch (e) {
    v.redis = `unreachable (${(e as Error).message})`;
  } finally {
    redis.disconnect();
  }
  return v;
}
