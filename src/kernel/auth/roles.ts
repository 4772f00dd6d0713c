/**
 * API.md: viewer (reads and decisions) < operator (taints, cordon, conditions, pods, bindings) < admin (everything).
 */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/** Who made a request: recorded as the actor of every change (issue 7, audit). */
export interface Principal {
  name: string;
  role: Role;
  /** True when the service runs open (no API_KEYS). */
  anonymous: boolean;
}

export const OPEN_PRINCIPAL: Principal = { name: 'anonymous', role: 'admin', anonymous: true };
