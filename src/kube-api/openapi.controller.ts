import { Controller, Get, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError } from '../kernel/errors/app-error';
import { groupDocument, isOpenApiGroupPath, openApiRoot } from './openapi-documents';

/** `/openapi/v3` and its group-version documents (see openapi-documents.ts for why they are enough). */
@ApiExcludeController()
@Controller('openapi/v3')
export class OpenApiController {
  @Get()
  root(): object {
    return openApiRoot();
  }

  @Get('api/v1')
  core(): object {
    return groupDocument('');
  }

  @Get('apis/:group/v1')
  group(@Param('group') group: string): object {
    const served = isOpenApiGroupPath(`apis/${group}/v1`);
    if (served === undefined) throw new AppError('NotFound', 'the server could not find the requested resource');
    return groupDocument(served);
  }
}
