import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DELAYED_JOBS } from '../tokens';
import type { DelayedJob, DelayedJobHandler, DelayedJobs } from './delayed-jobs';

/**
 * One DelayedJobs backend, several kinds of timer: `start` takes one handler per instance, so features
 * register a handler for the ids they own (by prefix: `evict-`, `webhook-`) in `onModuleInit`, and the
 * router starts the backend once every handler is known (`onApplicationBootstrap` runs after every
 * module's `onModuleInit`). A timer whose id no feature owns is logged and dropped.
 */
@Injectable()
export class TimerRouter implements OnApplicationBootstrap {
  private readonly logger = new Logger('timers');
  private readonly routes: Array<{ prefix: string; handler: DelayedJobHandler }> = [];
  private started = false;

  constructor(@Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs) {}

  /** The handler of timers whose id starts with `prefix`. */
  register(prefix: string, handler: DelayedJobHandler): void {
    if (this.started) throw new Error(`timer route ${prefix} registered after the timers started`);
    this.routes.push({ prefix, handler });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.routes.length === 0) return; // a producer-only instance
    this.started = true;
    await this.jobs.start((job) => this.dispatch(job));
  }

  private dispatch(job: DelayedJob): Promise<void> {
    const route = this.routes.find((r) => job.id.startsWith(r.prefix));
    if (route) return route.handler(job);
    this.logger.warn({ msg: 'ignoring a timer no feature owns', id: job.id });
    return Promise.resolve();
  }
}
