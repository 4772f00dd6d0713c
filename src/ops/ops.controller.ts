import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../kernel/auth/public.decorator';
import { Metrics } from '../kernel/observability/metrics';
import { READINESS_CHECKS, runReadinessChecks, type ReadinessCheck } from '../kernel/observability/readiness';

@ApiTags('operations')
@Controller()
export class OpsController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    private readonly metrics: Metrics,
  ) {}

  @Public()
  @Get('healthz')
  @ApiOkResponse({ description: 'The process is up.', schema: { example: { status: 'ok' } } })
  healthz(): { status: string } {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  @ApiOkResponse({
    description: 'Database and timers reachable.',
    schema: { example: { status: 'ready', checks: { database: { ok: true, ms: 1 }, timers: { ok: true, ms: 0 } } } },
  })
  @ApiServiceUnavailableResponse({ description: 'A part is unreachable; the failing part is named.' })
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const result = await runReadinessChecks(this.checks);
    if (result.ready) {
      void reply.status(200).send({ status: 'ready', checks: result.checks });
      return;
    }
    const failing = Object.entries(result.checks)
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => `${name}: ${c.error}`);
    void reply
      .status(503)
      .header('content-type', 'application/problem+json; charset=utf-8')
      .send(
        JSON.stringify({
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: `not ready: ${failing.join('; ')}`,
          checks: result.checks,
        }),
      );
  }

  @Get('metrics')
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
