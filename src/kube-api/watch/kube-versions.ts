import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Database } from '../../kernel/persistence/database';
import { DATABASE } from '../../kernel/tokens';

/** Versions of one process: epoch × EPOCH_SPAN + a counter (9e15 / 1e9 leaves 9 million restarts). */
const EPOCH_SPAN = 1_000_000_000;

/**
 * The Kubernetes API's `metadata.resourceVersion`s, one global sequence as the API server's: every change the
 * snapshot applies gets the next number (so their order is commit order, what a watch resumes by), and every
 * object answers the version of its last change. The counter lives in this process; each start takes the next
 * epoch from PostgreSQL (`kube_resource_version_epoch`), so versions only grow, across restarts too, and one
 * from an earlier process is older than anything this one holds (a watch from it gets 410 Gone; clients
 * relist). taintwise's own REST `resourceVersion`s are per object and unchanged; a write through the
 * Kubernetes API with a `metadata.resourceVersion` precondition is translated (`restVersionFor`).
 */
@Injectable()
export class KubeVersions implements OnApplicationBootstrap {
  private counter = 0;
  private epochBase = 0;
  /** `nodes/<name>` or `pods/<ns>/<name>` → [kube version, REST version it was given for]. */
  private readonly versions = new Map<string, [number, string]>();

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async onApplicationBootstrap(): Promise<void> {
    const rows = await this.database.prisma.$queryRawUnsafe<Array<{ epoch: bigint | number }>>(
      `SELECT nextval('kube_resource_version_epoch') AS epoch`,
    );
    this.epochBase = Number(rows[0].epoch) * EPOCH_SPAN;
    this.counter = this.epochBase;
  }

  /** The version of the newest change (a list's `metadata.resourceVersion`). */
  current(): number {
    return this.counter;
  }

  /** The first version this process handed out: a watch from an older one is answered 410. */
  get oldestThisProcess(): number {
    return this.epochBase;
  }

  /** Records a change of the object (its REST version now) and returns its new kube version. */
  next(key: string, restVersion: string): number {
    const version = ++this.counter;
    this.versions.set(key, [version, restVersion]);
    return version;
  }

  /** The next version, for a change that no object keeps (an event, written once). */
  tick(): number {
    return ++this.counter;
  }

  /** Records a deletion: the next version, and the object forgotten. */
  deleted(key: string): number {
    this.versions.delete(key);
    return ++this.counter;
  }

  /** Forget everything (the snapshot was reloaded): objects answer the current version until they change. */
  reset(): number {
    this.versions.clear();
    return ++this.counter;
  }

  /** The object's kube version: of its last change seen here, else this process' start. */
  versionOf(key: string, restVersion: string): string {
    const known = this.versions.get(key);
    return String(known && known[1] === restVersion ? known[0] : this.epochBase);
  }

  /**
   * The REST version a Kubernetes-API precondition stands for: the object's current one when the client sent
   * its current kube version, otherwise a version no object has (so the write fails with 409 Conflict).
   */
  restVersionFor(key: string, kubeVersion: string, currentRest: string): string {
    return this.versionOf(key, currentRest) === kubeVersion ? currentRest : `stale:${kubeVersion}`;
  }
}

export const nodeKey = (name: string) => `nodes/${name}`;
export const podKey = (namespace: string, name: string) => `pods/${namespace}/${name}`;
export const pdbKey = (namespace: string, name: string) => `poddisruptionbudgets/${namespace}/${name}`;
