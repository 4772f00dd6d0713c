import { Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { getHeapStatistics } from 'node:v8';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { AppError } from '../kernel/errors/app-error';
import { Metrics } from '../kernel/observability/metrics';
import type { GcPause } from '../kernel/observability/gc-pauses';
import { collectGarbageNow } from '../kernel/runtime/full-collection';

/**
 * Routes for the bench (BENCH_OPS_ROUTES, off by default, refused in production): the GC pauses inside
 * a load test's window, and the live heap after a forced full collection (what the collector must
 * trace at the inventory's size). Off, they answer 404 like any unknown route.
 */
@ApiExcludeController()
@Controller('ops')
export class BenchOpsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  @Get('gc-pauses')
  gcPauses(@Query('since') since?: string): { pauses: GcPause[] } {
    this.enabled();
    if (!this.metrics.gcPauses) throw new AppError('NotFound', 'GC pauses are not recorded (METRICS_GC_PAUSES=false)');
    return { pauses: this.metrics.gcPauses.recent(Number(since) || 0) };
  }

  /** A full collection, timed, then V8's heap statistics (`collected` is always true; kept for older callers). */
  @Post('heap')
  @HttpCode(200)
  heap(): { collected: boolean; gcMs: number; heap: ReturnType<typeof getHeapStatistics> } {
    this.enabled();
    const gcMs = collectGarbageNow();
    return { collected: true, gcMs, heap: getHeapStatistics() };
  }

  private enabled(): void {
    if (!this.config.BENCH_OPS_ROUTES)
      throw new AppError('NotFound', 'Cannot find this route (BENCH_OPS_ROUTES is off)');
  }
}
