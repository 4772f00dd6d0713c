import { createHash } from 'node:crypto';
import type { Role } from '../../src/kernel/auth/roles';

/** One key per role (named after the role, plus "ops", an operator) for API_KEYS, and their headers. */
export interface TestKeys {
  /** API_KEYS value: `name:role:sha256hex,...` */
  env: string;
  /** Authorization headers by key name: viewer, operator, admin, ops. */
  headers: Record<'viewer' | 'operator' | 'admin' | 'ops', Record<string, string>>;
  /** `Bearer <key>` by key name. */
  bearer: Record<'viewer' | 'operator' | 'admin' | 'ops', string>;
}

export function testKeys(): TestKeys {
  const entries: Array<[name: 'viewer' | 'operator' | 'admin' | 'ops', role: Role]> = [
    ['viewer', 'viewer'],
    ['operator', 'operator'],
    ['admin', 'admin'],
    ['ops', 'operator'],
  ];
  const bearer = {} as TestKeys['bearer'];
  const headers = {} as TestKeys['headers'];
  const env = entries.map(([name, role]) => {
    const key = `tw-test-${name}-${createHash('sha256').update(`${name}${Math.random()}`).digest('hex').slice(0, 24)}`;
    bearer[name] = `Bearer ${key}`;
    headers[name] = { authorization: bearer[name] };
    return `${name}:${role}:${createHash('sha256').update(key).digest('hex')}`;
  });
  return { env: env.join(','), headers, bearer };
}
