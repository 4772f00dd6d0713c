import type { FastifyRequest } from 'fastify';
import type { Principal } from './roles';

/** A request after authentication: the hook puts the caller on it, the guard and decorators read it. */
export type RequestWithPrincipal = FastifyRequest & { principal?: Principal };
