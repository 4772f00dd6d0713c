import { SetMetadata } from '@nestjs/common';
import type { Role } from './roles';

export const IS_PUBLIC = 'taintwise:public';
export const REQUIRED_ROLE = 'taintwise:required-role';

/** No key needed (only /healthz and /readyz, API.md). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The lowest role allowed to call a route or resolver; without it, `viewer`. */
export const RequiresRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);
