import { Global, Module } from '@nestjs/common';
import { BudgetService } from './budget.service';
import { BudgetsResolver } from './graphql/budgets.resolver';
import { BudgetsController } from './rest/budgets.controller';

/** policy/v1 PodDisruptionBudgets: CRUD over REST and GraphQL; the Kubernetes API uses BudgetService too. */
@Global()
@Module({
  controllers: [BudgetsController],
  providers: [BudgetService, BudgetsResolver],
  exports: [BudgetService],
})
export class BudgetsModule {}
