/** `?watch=true|1` (apimachinery ListOptions.Watch), the switch from a list to a watch. */
export function isWatch(query: Record<string, string | undefined>): boolean {
  return query.watch === 'true' || query.watch === '1';
}
