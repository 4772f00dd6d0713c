import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Client } from 'pg';
import type { Database } from '../persistence/database';
import { DATABASE, REPLICA_ID } from '../tokens';
import { EventRepository } from '../persistence/repositories/event.repository';
import { EventBus } from '../events/event-bus';
import { CHANGE_CHANNEL } from '../persistence/unit-of-work';
import { SnapshotService, type ChangeNotice } from './snapshot.service';

/**
 * Other replicas' commits, heard through PostgreSQL LISTEN/NOTIFY on a dedicated connection: the
 * snapshot re-reads what they changed and their events join this replica's live stream. After a
 * lost connection the snapshot is reloaded whole (notices sent meanwhile are gone).
 * On embedded PGlite there is a single process, so there is nothing to listen to.
 */
@Injectable()
export class ChangeFeedService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('change-feed');
  private client: Client | undefined;
  private stopped = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(REPLICA_ID) private readonly replicaId: string,
    private readonly snapshot: SnapshotService,
    private readonly bus: EventBus,
    private readonly events: EventRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.database.kind !== 'postgres') return;
    await this.connect(false);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(reloadAfter: boolean): Promise<void> {
    try {
      const client = await this.database.newPgClient();
      client.on('notification', (msg) => {
        if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
        // Notices are applied one after the other, in commit order.
        this.queue = this.queue
          .then(() => this.handle(msg.payload!))
          .catch((e: unknown) =>
            this.logger.warn({ msg: 'applying a change notice failed; reloading', err: String(e) }),
          );
      });
      client.on('error', (e) => this.reconnect(e));
      client.on('end', () => this.reconnect(new Error('connection ended')));
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      this.client = client;
      if (reloadAfter) await this.snapshot.reload();
    } catch (e) {
      this.reconnect(e);
    }
  }

  private reconnect(error: unknown): void {
    if (this.stopped) return;
    const old = this.client;
    this.client = undefined;
    old?.removeAllListeners();
    // A closing client may still emit 'error'; without a listener that would crash the process.
    old?.on('error', () => undefined);
    void old?.end().catch(() => undefined);
    this.logger.warn({ msg: 'change feed lost; reconnecting', err: String(error) });
    setTimeout(() => {
      if (!this.stopped && !this.client) void this.connect(true);
    }, 1000).unref();
  }

  private async handle(payload: string): Promise<void> {
    const notice = JSON.parse(payload) as ChangeNotice & { eventRange?: boolean };
    if (notice.origin === this.replicaId) return;
    await this.snapshot.applyNotice(notice);
    if (notice.events?.length) await this.publishEvents(notice.events, notice.eventRange === true);
  }

  private async publishEvents(ids: string[], range: boolean): Promise<void> {
    for (const event of await this.events.findCommitted(this.database.prisma, ids, range)) this.bus.publish(event);
  }
}
