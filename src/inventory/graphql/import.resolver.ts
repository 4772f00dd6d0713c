import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { ImportResultModel, toImportResultModel } from './import-result.model';
import { ImportService } from '../import.service';

@Resolver()
export class ImportResolver {
  constructor(private readonly imports: ImportService) {}

  @Mutation(() => ImportResultModel, {
    description: 'POST /v1/import: kubectl JSON/YAML output (or a cluster-info dump) as a string',
  })
  @RequiresRole('admin')
  async importManifests(
    @Args('manifests') manifests: string,
    @Args('contentType', {
      type: () => String,
      nullable: true,
      description: 'application/json or application/yaml; absent: sniffed',
    })
    contentType: string | undefined,
    @Actor() actor: Actor,
  ): Promise<ImportResultModel> {
    return toImportResultModel(await this.imports.import(manifests, contentType ?? undefined, actor));
  }
}
