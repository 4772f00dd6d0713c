import { withTimeout } from '../timers/time-limits';
/** A part the service needs to answer (database, timers). `/readyz` runs every check. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export interface ReadinessResult {
  ready: boolean;
  checks: Record<string, { ok: boolean; error?: string; ms: number }>;
}

export async function runReadinessChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = 2000,
): Promise<ReadinessResult> {
  const results = await Promise.all(
    checks.map(async (c) => {
      const started = performance.now();
      try {
        await withTimeout(c.check(), timeoutMs, `${c.name} did not answer within ${timeoutMs} ms`);
        return [c.name, { ok: true, ms: Math.round(performance.now() - started) }] as const;
      } catch (e) {
        return [
          c.name,
          { ok: false, error: e instanceof Error ? e.message : String(e), ms: Math.round(performance.now() - started) },
        ] as const;
      }
    }),
  );
  const checksByName = Object.fromEntries(results);
  return { ready: results.every(([, r]) => r.ok), checks: checksByName };
}
