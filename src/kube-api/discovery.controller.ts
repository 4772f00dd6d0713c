import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AppError } from '../kernel/errors/app-error';
import {
  AGGREGATED_CONTENT_TYPE,
  aggregatedDiscovery,
  isServedGroup,
  legacyApiVersions,
  legacyGroup,
  legacyGroupList,
  legacyResourceList,
  wantsAggregated,
} from './discovery-documents';

/** `/version` and discovery (`/api`, `/apis`, and each group version), for kubectl's RESTMapper. */
@ApiExcludeController()
@Controller()
export class DiscoveryController {
  @Get('version')
  version(): object {
    // taintwise speaks the core/v1 and policy/v1 API of Kubernetes 1.32, the kubectl it is tested with.
    return {
      major: '1',
      minor: '32',
      gitVersion: 'v1.32.0-taintwise',
      gitCommit: '',
      gitTreeState: 'clean',
      buildDate: '1970-01-01T00:00:00Z',
      goVersion: '',
      compiler: 'taintwise',
      platform: 'linux/amd64',
    };
  }

  @Get('api')
  core(@Headers('accept') accept: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): object {
    if (!wantsAggregated(accept)) return legacyApiVersions();
    void reply.header('content-type', AGGREGATED_CONTENT_TYPE);
    return aggregatedDiscovery(true);
  }

  @Get('apis')
  groups(@Headers('accept') accept: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): object {
    if (!wantsAggregated(accept)) return legacyGroupList();
    void reply.header('content-type', AGGREGATED_CONTENT_TYPE);
    return aggregatedDiscovery(false);
  }

  @Get('api/v1')
  coreV1(): object {
    return legacyResourceList('', 'v1');
  }

  @Get('apis/:group')
  group(@Param('group') group: string): object {
    if (!isServedGroup(group)) throw new AppError('NotFound', 'the server could not find the requested resource');
    return legacyGroup(group);
  }

  @Get('apis/:group/:version')
  groupVersion(@Param('group') group: string, @Param('version') version: string): object {
    if (!isServedGroup(group) || version !== 'v1') {
      throw new AppError('NotFound', 'the server could not find the requested resource');
    }
    return legacyResourceList(group, version);
  }
}
