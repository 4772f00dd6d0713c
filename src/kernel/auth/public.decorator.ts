import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Role } from './roles';

export const IS_PUBLIC = 'taintwise:public';
export const REQUIRED_ROLE = 'taintwise:required-role';

/** No key needed (only /healthz and /readyz, API.md; authenticate.hook.ts PUBLIC_PATHS). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * The lowest role allowed to call a route or resolver; without it, `viewer`. Also published in the
 * OpenAPI document as `x-required-role`, which the security e2e tests check against API.md's policy.
 */
export const RequiresRole = (role: Role) =>
  applyDecorators(SetMetadata(REQUIRED_ROLE, role), ApiExtension('x-required-role', role));
