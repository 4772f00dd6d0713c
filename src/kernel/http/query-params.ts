import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';

/** Query parameters that may repeat (`?types=A&types=B`); every other one is a single value. */
export const REPEATABLE_QUERY_PARAMETERS: ReadonlySet<string> = new Set(['types']);

/**
 * A repeated query parameter (`?phase=Running&phase=Pending`) arrives as an array where every handler
 * expects one string, and would reach the services — and Prisma — as an array (a 500). Refused here,
 * once for every route, as a 400 naming the parameter.
 */
export function installQueryParameterCheck(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || typeof query !== 'object') return;
    const repeated = Object.keys(query).filter((k) => Array.isArray(query[k]) && !REPEATABLE_QUERY_PARAMETERS.has(k));
    if (repeated.length === 0) return;
    throw new AppError(
      'BadRequest',
      `query parameter${repeated.length > 1 ? 's' : ''} ${repeated.map((k) => JSON.stringify(k)).join(', ')} given more than once; give each once`,
      repeated.map((k) => ({
        field: k,
        type: 'Invalid value' as const,
        message: 'Invalid value: given more than once',
      })),
    );
  });
}
