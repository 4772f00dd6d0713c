import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { decideTolerationMatch } from '../domain/scheduling/toleration-match';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { Taint, TaintEffect, Toleration } from '../domain/types';
import { validateNodeTaints } from '../domain/validation/validate-node-taints';
import { validateTolerations } from '../domain/validation/validate-tolerations';
import { parseBody } from '../kernel/http/input/parse-body';
import type { TaintView, TolerationMatchAnswer } from './decision-answers';
import { tolerationMatchBodySchema } from './decision-bodies';
import { invalidRequest, matchOptionsOf } from './decision-requests';

/** POST /v1/decisions/toleration-match: how tolerations meet taints; nothing is read or written. */
@Injectable()
export class TolerationMatchService {
  private readonly matchOptions: MatchOptions;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.matchOptions = matchOptionsOf(config);
  }

  /** POST /v1/decisions/toleration-match: taints and tolerations are validated as Kubernetes does (422). */
  tolerationMatch(body: unknown): TolerationMatchAnswer {
    const input = parseBody(tolerationMatchBodySchema, body, 'toleration-match request');
    const taints: Taint[] = input.taints.map((t) => ({
      key: t.key,
      value: t.value ?? '',
      effect: t.effect as TaintEffect,
      ...(t.timeAdded ? { timeAdded: new Date(t.timeAdded) } : {}),
    }));
    const tolerations = input.tolerations as Toleration[];
    const errors = [
      ...validateNodeTaints(taints, 'taints'),
      ...validateTolerations(tolerations, 'tolerations', this.matchOptions),
    ];
    if (errors.length > 0) throw invalidRequest('toleration-match request', errors);
    const decision = decideTolerationMatch(taints, tolerations, this.matchOptions);
    return {
      matches: decision.matches.map((m) => ({
        taint: taintView(m.taint),
        tolerated: m.tolerated,
        ...(m.tolerationIndex !== undefined ? { tolerationIndex: m.tolerationIndex } : {}),
      })),
      schedulable: decision.schedulable,
      preferAvoid: decision.preferAvoid,
      eviction: decision.eviction,
    };
  }
}

function taintView(taint: Taint): TaintView {
  return {
    key: taint.key,
    value: taint.value ?? '',
    effect: taint.effect,
    ...(taint.timeAdded ? { timeAdded: taint.timeAdded } : {}),
  };
}
