import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from '../support/test-app';
import { TlsFront } from './tls-front';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The machine's real kubectl against a test app: its own HOME, kubeconfig and discovery cache in a
 * temp folder (nothing shared between tests or with the user), the API key as the kubeconfig's token.
 */
export class Kubectl {
  private readonly dir = mkdtempSync(join(tmpdir(), 'tw-kubectl-'));
  private readonly kubeconfig = join(this.dir, 'config');

  constructor(server: string, token: string, caPem: string) {
    writeFileSync(
      this.kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: taintwise',
        `  cluster: { server: "${server}", certificate-authority-data: "${Buffer.from(caPem).toString('base64')}" }`,
        'users:',
        '- name: tw',
        `  user: { token: "${token}" }`,
        'contexts:',
        '- name: taintwise',
        '  context: { cluster: taintwise, user: tw, namespace: default }',
        'current-context: taintwise',
        '',
      ].join('\n'),
    );
  }

  run(args: string[], options: { stdin?: string; token?: string } = {}): Promise<KubectlResult> {
    const extra = options.token ? [`--token=${options.token}`] : [];
    return new Promise((resolve) => {
      const child = execFile(
        '/usr/bin/kubectl',
        [`--kubeconfig=${this.kubeconfig}`, `--cache-dir=${join(this.dir, 'cache')}`, ...extra, ...args],
        {
          env: { PATH: process.env.PATH ?? '', HOME: this.dir, KUBECONFIG: this.kubeconfig },
          timeout: 120_000,
          maxBuffer: 512 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        },
      );
      if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    });
  }

  /** A long-running kubectl (`get -w`): the caller reads its output and kills it. */
  spawn(args: string[]): ChildProcess {
    return spawn(
      '/usr/bin/kubectl',
      [`--kubeconfig=${this.kubeconfig}`, `--cache-dir=${join(this.dir, 'cache')}`, ...args],
      {
        env: { PATH: process.env.PATH ?? '', HOME: this.dir, KUBECONFIG: this.kubeconfig },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A kubectl table as rows of cells (split on runs of 2+ spaces, as kubectl pads columns). */
export function tableRows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));
}

/** A test app reached by kubectl through a TLS front, with one kubectl per token. */
export async function kubectlFor(app: TestApp, token: string): Promise<{ kubectl: Kubectl; close(): Promise<void> }> {
  const front = await TlsFront.start(app.url);
  const kubectl = new Kubectl(front.url, token.replace(/^Bearer /, ''), front.caPem);
  return {
    kubectl,
    close: async () => {
      kubectl.dispose();
      await front.close();
    },
  };
}
