import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import {
  chargePerItem,
  connectionType,
  toConnection,
  type Connection,
} from '../../kernel/graphql/models/connection.model';
import { fromEntries } from '../../kernel/graphql/models/key-value.model';
import { encodeContinue } from '../../kernel/http/paging';
import type { StoredBudget } from '../../kernel/model/stored-budget';
import { BudgetService } from '../budget.service';
import {
  BudgetsArgs,
  DisruptionBudgetInput,
  DisruptionBudgetModel,
  intOrPercentFromString,
  toBudgetModel,
} from './budget.model';

const DisruptionBudgetConnection = connectionType(
  'DisruptionBudget',
  DisruptionBudgetModel,
  'Disruption budgets by namespace, then name.',
);
type DisruptionBudgetConnection = Connection<DisruptionBudgetModel>;

/** GraphQL for disruption budgets: the same BudgetService and validation as REST. */
@Resolver(() => DisruptionBudgetModel)
export class BudgetsResolver {
  constructor(private readonly budgets: BudgetService) {}

  @Query(() => DisruptionBudgetModel, { description: 'GET /v1/namespaces/{ns}/poddisruptionbudgets/{name}' })
  disruptionBudget(@Args('namespace') namespace: string, @Args('name') name: string): DisruptionBudgetModel {
    return this.model(this.budgets.get(namespace, name));
  }

  @Query(() => DisruptionBudgetConnection, {
    description: 'GET /v1/poddisruptionbudgets (or one namespace): by namespace then name',
    complexity: chargePerItem,
  })
  disruptionBudgets(@Args() args: BudgetsArgs): DisruptionBudgetConnection {
    const page = this.budgets.list(args.namespace ?? undefined, {
      limit: args.first ?? undefined,
      continue: args.after ?? undefined,
    });
    return toConnection(
      page,
      (b) => encodeContinue([b.namespace, b.name]),
      (b) => this.model(b),
    );
  }

  @Mutation(() => DisruptionBudgetModel, { description: 'PUT /v1/namespaces/{ns}/poddisruptionbudgets/{name}' })
  @RequiresRole('operator')
  async putDisruptionBudget(
    @Args('namespace') namespace: string,
    @Args('name') name: string,
    @Args('budget') input: DisruptionBudgetInput,
    @Actor() actor: Actor,
  ): Promise<DisruptionBudgetModel> {
    const spec: Record<string, unknown> = {};
    if (input.minAvailable != null) spec.minAvailable = intOrPercentFromString(input.minAvailable);
    if (input.maxUnavailable != null) spec.maxUnavailable = intOrPercentFromString(input.maxUnavailable);
    if (input.selector != null) {
      spec.selector = {
        ...(input.selector.matchLabels ? { matchLabels: fromEntries(input.selector.matchLabels) } : {}),
        ...(input.selector.matchExpressions
          ? { matchExpressions: input.selector.matchExpressions.map((e) => ({ ...e })) }
          : {}),
      };
    }
    if (input.unhealthyPodEvictionPolicy != null) spec.unhealthyPodEvictionPolicy = input.unhealthyPodEvictionPolicy;
    const body = {
      metadata: {
        ...(input.labels ? { labels: fromEntries(input.labels) } : {}),
        ...(input.resourceVersion ? { resourceVersion: input.resourceVersion } : {}),
      },
      spec,
    };
    const { budget } = await this.budgets.upsert(namespace, name, body, actor);
    return this.model(budget);
  }

  @Mutation(() => Boolean, { description: 'DELETE /v1/namespaces/{ns}/poddisruptionbudgets/{name}' })
  @RequiresRole('operator')
  async deleteDisruptionBudget(
    @Args('namespace') namespace: string,
    @Args('name') name: string,
    @Actor() actor: Actor,
  ): Promise<boolean> {
    await this.budgets.delete(namespace, name, actor);
    return true;
  }

  private model(budget: StoredBudget): DisruptionBudgetModel {
    return toBudgetModel(budget, this.budgets.status(budget));
  }
}
