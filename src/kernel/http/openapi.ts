import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** OpenAPI document at /docs-json and its UI at /docs (assets served locally by @nestjs/swagger). */
export function registerOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('taintwise')
    .setDescription(
      'Scheduling decisions for Kubernetes taints and tolerations: feasible nodes, taint impact, toleration match, ' +
        'kubectl-style taint mutations and durable NoExecute evictions. Errors are application/problem+json (RFC 9457).',
    )
    .setVersion('1')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'API key (API_KEYS); roles viewer < operator < admin',
    })
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    customSiteTitle: 'taintwise API',
  });
}
