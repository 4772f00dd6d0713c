import { Injectable } from '@nestjs/common';
import type { Taint, TaintEffect } from '../../../domain/types';
import type { Db } from '../prisma-types';

export const EVICTION_STATUSES = ['Scheduled', 'Executed', 'Cancelled', 'Failed'] as const;
export type EvictionStatus = (typeof EVICTION_STATUSES)[number];

/** An eviction as the API shows it (API.md "Evictions"). */
export interface StoredEviction {
  id: string;
  pod: { namespace: string; name: string; uid: string };
  node: string;
  taints: Taint[];
  status: EvictionStatus;
  createdAt: Date;
  evictAt: Date;
  executedAt: Date | null;
  cancelledAt: Date | null;
  reason: string;
}

export interface EvictionFilter {
  status?: EvictionStatus;
  node?: string;
  namespace?: string;
}

/** Reads of the eviction history (the planner is the only writer). */
@Injectable()
export class EvictionRepository {
  /** Newest first (createdAt, then id, descending); `after` is the last item of the previous page. */
  async list(db: Db, filter: EvictionFilter, limit: number, after?: { createdAt: Date; id: string }): Promise<StoredEviction[]> {
    const rows = await db.eviction.findMany({
      where: {
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.node !== undefined ? { nodeName: filter.node } : {}),
        ...(filter.namespace !== undefined ? { namespace: filter.namespace } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(toStoredEviction);
  }

  async findById(db: Db, id: string): Promise<StoredEviction | undefined> {
    const row = await db.eviction.findUnique({ where: { id } });
    return row ? toStoredEviction(row) : undefined;
  }

  async countScheduled(db: Db): Promise<number> {
    return db.eviction.count({ where: { status: 'Scheduled' } });
  }
}

type EvictionRow = {
  id: string; podUid: string; namespace: string; podName: string; nodeName: string; taints: unknown; status: string;
  evictAt: Date; createdAt: Date; executedAt: Date | null; cancelledAt: Date | null; reason: string;
};

function toStoredEviction(row: EvictionRow): StoredEviction {
  const taints = ((row.taints ?? []) as Array<{ key: string; value?: string; effect: string; timeAdded?: string }>).map((t): Taint => ({
    key: t.key, value: t.value ?? '', effect: t.effect as TaintEffect, ...(t.timeAdded ? { timeAdded: new Date(t.timeAdded) } : {}),
  }));
  return {
    id: row.id,
    pod: { namespace: row.namespace, name: row.podName, uid: row.podUid },
    node: row.nodeName,
    taints,
    status: row.status as EvictionStatus,
    createdAt: row.createdAt,
    evictAt: row.evictAt,
    executedAt: row.executedAt,
    cancelledAt: row.cancelledAt,
    reason: row.reason,
  };
}

export function presentEviction(e: StoredEviction): Record<string, unknown> {
  return {
    id: e.id,
    pod: e.pod,
    node: e.node,
    taints: e.taints.map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect, ...(t.timeAdded ? { timeAdded: t.timeAdded.toISOString() } : {}) })),
    status: e.status,
    createdAt: e.createdAt.toISOString(),
    evictAt: e.evictAt.toISOString(),
    ...(e.executedAt ? { executedAt: e.executedAt.toISOString() } : {}),
    ...(e.cancelledAt ? { cancelledAt: e.cancelledAt.toISOString() } : {}),
    reason: e.reason,
  };
}
