import { AppError } from '../kernel/errors/app-error';
import { roleAtLeast, type Principal } from '../kernel/auth/roles';

/**
 * The same roles as REST (a viewer may get, list and watch; writes need an operator), refused in the
 * API server's RBAC words so kubectl prints `Error from server (Forbidden): nodes "x" is forbidden: ...`.
 */
export function requireWriter(
  principal: Principal,
  verb: string,
  resource: string,
  name?: string,
  namespace?: string,
): void {
  if (roleAtLeast(principal.role, 'operator')) return;
  const subject = name ? `${resource} "${name}"` : resource;
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  throw new AppError(
    'Forbidden',
    `${subject} is forbidden: User "${principal.name}" cannot ${verb} resource "${resource}" in API group "" ${scope}: ` +
      `key "${principal.name}" has role ${principal.role}; this needs operator`,
    [],
    { kube: { name: name ?? '', kind: resource } },
  );
}

/** `dryRun=All` (the only value the API server accepts) or none. */
export function isDryRun(dryRun: string | undefined): boolean {
  if (dryRun === undefined || dryRun === '') return false;
  if (dryRun === 'All') return true;
  throw new AppError('BadRequest', `Invalid dry run value: ${JSON.stringify(dryRun)}: supported values: "All"`);
}
