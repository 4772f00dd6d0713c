import type { Prisma, PrismaClient } from '../../generated/prisma/client';

/** A Prisma client or an interactive transaction: repositories work on either. */
export type Db = PrismaClient | Prisma.TransactionClient;
export type { Prisma };

/** Prisma's JSON input type for our plain objects. */
export function json(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
