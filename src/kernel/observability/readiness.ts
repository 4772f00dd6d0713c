import { withTimeout } from '../timers/time-limits';
/** A part the service needs to answer (database, timers). `/readyz` runs every check. */
export interface ReadinessCheck {
  readonly name: string;
  /** Throws when not ready; may answer details shown beside `ok` (the mirror's sync state). */
  check(): Promise<void | Record<string, unknown>>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export interface ReadinessResult {
  ready: boolean;
  checks: Record<string, { ok: boolean; error?: string; ms: number } & Record<string, unknown>>;
}

export async function runReadinessChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = 2000,
): Promise<ReadinessResult> {
  const results = await Promise.all(
    checks.map(async (c) => {
      const started = performance.now();
      try {
        const detail = await withTimeout(c.check(), timeoutMs, `${c.name} did not answer within ${timeoutMs} ms`);
        return [c.name, { ok: true, ...(detail ?? {}), ms: Math.round(performance.now() - started) }] as const;
      } catch (e) {
        const detail = (e as { detail?: Record<string, unknown> }).detail ?? {};
        return [
          c.name,
          {
            ok: false,
            error: e instanceof Error ? e.message : String(e),
            ...detail,
            ms: Math.round(performance.now() - started),
          },
        ] as const;
      }
    }),
  );
  const checksByName = Object.fromEntries(results);
  return { ready: results.every(([, r]) => r.ok), checks: checksByName };
}
