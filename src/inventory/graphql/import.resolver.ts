import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequestId } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import type { Principal } from '../../kernel/auth/roles';
import { ImportResultModel, toImportResultModel } from './import-result.model';
import { ImportService } from '../import.service';

@Resolver()
export class ImportResolver {
  constructor(private readonly imports: ImportService) {}

  @Mutation(() => ImportResultModel, { description: 'POST /v1/import: kubectl JSON/YAML output (or a cluster-info dump) as a string' })
  @RequiresRole('admin')
  async importManifests(@Args('manifests') manifests: string, @Args('contentType', { type: () => String, nullable: true, description: 'application/json or application/yaml; absent: sniffed' }) contentType: string | undefined, @CurrentPrincipal() who: Principal, @RequestId() requestId?: string): Promise<ImportResultModel> {
    return toImportResultModel(await this.imports.import(manifests, contentType ?? undefined, { name: who.name, requestId }));
  }
}
