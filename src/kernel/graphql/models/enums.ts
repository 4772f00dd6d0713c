import { registerEnumType } from '@nestjs/graphql';

/**
 * API.md: effects and operators are enums in GraphQL; a null toleration effect means all effects, a null operator
 * Equal.
 */
export enum TaintEffectEnum {
  NoSchedule = 'NoSchedule',
  PreferNoSchedule = 'PreferNoSchedule',
  NoExecute = 'NoExecute',
}

export enum TolerationOperatorEnum {
  Equal = 'Equal',
  Exists = 'Exists',
  Gt = 'Gt',
  Lt = 'Lt',
}

export enum EvictionActionEnum {
  None = 'None',
  EvictNow = 'EvictNow',
  EvictAfter = 'EvictAfter',
}

export enum EvictionStatusEnum {
  Scheduled = 'Scheduled',
  /** Due, but waiting for a disruption budget (respectDisruptionBudgets). */
  Held = 'Held',
  Cancelled = 'Cancelled',
  Executed = 'Executed',
  Failed = 'Failed',
}

registerEnumType(TaintEffectEnum, {
  name: 'TaintEffect',
  description: 'What a taint does to pods that do not tolerate it.',
});
registerEnumType(TolerationOperatorEnum, {
  name: 'TolerationOperator',
  description: 'How a toleration compares values; null means Equal.',
});
registerEnumType(EvictionActionEnum, { name: 'EvictionAction' });
registerEnumType(EvictionStatusEnum, { name: 'EvictionStatus' });
