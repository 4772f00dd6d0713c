import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { ApiKeys } from './kernel/auth/api-keys';
import { AuthGuard } from './kernel/auth/auth.guard';
import type { AppConfig } from './kernel/config/config.schema';
import { CoreModule } from './kernel/core.module';
import { EventsModule } from './events/events.module';
import { EvictionsModule } from './evictions/evictions.module';
import { DecisionsModule } from './decisions/decisions.module';
import { AnswerCachePlugin, answerText } from './kernel/graphql/answer-cache';
import { JitExecutionPlugin } from './kernel/graphql/jit-execution';
import { formatGraphQLError } from './kernel/graphql/format-error';
import { graphqlWsOptions } from './kernel/graphql/graphql-ws';
import { complexityLimit, depthLimit } from './kernel/graphql/query-limits';
import { subscriptionsOverWebSocketOnly } from './kernel/graphql/subscriptions-over-websocket';
import { InventoryModule } from './inventory/inventory.module';
import { BudgetsModule } from './budgets/budgets.module';
import { KubeApiModule } from './kube-api/kube-api.module';
import { PersistenceModule } from './kernel/persistence/persistence.module';
import { OpsModule } from './ops/ops.module';
import { TaintsModule } from './taints/taints.module';
import { SystemResolver } from './ops/graphql/system.resolver';
import { WebhooksModule } from './webhooks/webhooks.module';
import { MirrorModule } from './mirror/mirror.module';

/** The composition root: global infrastructure (core), transports, and one module per use-case area. */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(config),
        PersistenceModule,
        OpsModule,
        InventoryModule,
        BudgetsModule,
        TaintsModule,
        EvictionsModule,
        EventsModule,
        DecisionsModule,
        KubeApiModule,
        WebhooksModule,
        // following a live cluster: only with SYNC_KUBECONFIG
        ...(config.SYNC_KUBECONFIG ? [MirrorModule] : []),
        GraphQLModule.forRoot<ApolloDriverConfig>({
          driver: ApolloDriver,
          path: '/graphql',
          autoSchemaFile: true,
          sortSchema: true,
          graphiql: false,
          introspection: true,
          validationRules: [depthLimit(config.GRAPHQL_MAX_DEPTH)],
          // The cast bridges @apollo/server's CJS and ESM type declarations, which TypeScript sees as distinct.
          // No cache hints are set anywhere, so Apollo's default cache-control plugin only costs a hook
          // per resolved field (~6 % of a feasibleNodes query's CPU; bench/experiments/graphql-cost.ts).
          plugins: [
            subscriptionsOverWebSocketOnly() as never,
            complexityLimit(config.GRAPHQL_MAX_COMPLEXITY) as never,
            ApolloServerPluginCacheControlDisabled() as never,
          ],
          formatError: formatGraphQLError,
          // an answer from the answer cache is sent as the text it kept (the same bytes Apollo would write)
          stringifyResult: answerText,
          subscriptions: {
            'graphql-ws': {
              path: '/graphql',
              ...graphqlWsOptions(new ApiKeys(config.API_KEYS), {
                maxDepth: config.GRAPHQL_MAX_DEPTH,
                maxComplexity: config.GRAPHQL_MAX_COMPLEXITY,
              }),
            },
          },
        }),
      ],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        SystemResolver,
        // Apollo plugins found by @nestjs/apollo among the providers (@Plugin()), asked in this order for a
        // response: a repeated question's cached answer first, then graphql-jit's execution
        AnswerCachePlugin,
        ...(config.GRAPHQL_JIT ? [JitExecutionPlugin] : []),
      ],
    };
  }
}
