import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal, Role } from './roles';

/**
 * API keys as configured in API_KEYS (`name:role:sha256hex`): the service stores only hashes and
 * compares the hash of the presented key in constant time.
 */
export class ApiKeys {
  private readonly byHash: Array<{ hash: Buffer; name: string; role: Role }>;

  constructor(entries: readonly string[]) {
    this.byHash = entries.map((entry) => {
      const [name, role, hex] = entry.split(':');
      return { name, role: role as Role, hash: Buffer.from(hex, 'hex') };
    });
  }

  get open(): boolean {
    return this.byHash.length === 0;
  }

  /** The principal for a bearer token, or undefined for a wrong key. */
  verify(token: string): Principal | undefined {
    const hash = createHash('sha256').update(token, 'utf8').digest();
    let found: Principal | undefined;
    for (const k of this.byHash) {
      // Compare against every key (no early exit) so timing does not reveal which prefix matched.
      if (timingSafeEqual(k.hash, hash)) found = { name: k.name, role: k.role, anonymous: false };
    }
    return found;
  }
}

export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return match?.[1];
}
