import { KubectlTaintError } from './kubectl-taint-error';

/** A `kubectl taint` command line split into what it names and what it changes (SEMANTICS B.3.1). */
export interface TaintCommand {
  /** `all` for `--all`; otherwise node names, or a label selector with `-l`. */
  nodes: string[] | 'all' | { labelSelector: string };
  taintSpecs: string[];
}

const NODE_KINDS = ['node', 'nodes', 'no'];

/** An argument is a taint spec iff it contains `=` or `:` or ends with `-` (`TaintOptions.Complete`). */
export function isTaintSpecArg(arg: string): boolean {
  return arg.includes('=') || arg.includes(':') || arg.endsWith('-');
}

/**
 * Splits `kubectl taint` arguments (after `kubectl taint`) as kubectl's `TaintOptions.Complete` and
 * `Validate` do (B.3.1): every resource argument precedes the taint arguments, only node resources,
 * at least one resource and one taint, and `--all` / `-l` are mutually exclusive.
 * @example classifyTaintArgs(['nodes', 'n1', 'k=v:NoSchedule']) // { nodes: ['n1'], taintSpecs: ['k=v:NoSchedule'] }
 */
export function classifyTaintArgs(args: readonly string[]): TaintCommand {
  let all = false;
  let selector: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--all') all = true;
    else if (arg === '-l' || arg === '--selector') selector = args[++i] ?? '';
    else if (arg.startsWith('--selector=')) selector = arg.slice('--selector='.length);
    else if (arg === '--overwrite' || arg.startsWith('--overwrite=') || arg === '--dry-run' || arg.startsWith('--dry-run=')) continue;
    else positional.push(arg);
  }
  const resources: string[] = [];
  const taintSpecs: string[] = [];
  for (const arg of positional) {
    if (isTaintSpecArg(arg)) taintSpecs.push(arg);
    else if (taintSpecs.length > 0) throw new KubectlTaintError('InvalidSpec', `all resources must be specified before taint changes: ${arg}`);
    else resources.push(arg);
  }
  if (all && selector !== undefined) throw new KubectlTaintError('InvalidSpec', 'setting \'all\' parameter with a label selector is not allowed');
  if (taintSpecs.length === 0) throw new KubectlTaintError('InvalidSpec', 'at least one taint update is required');
  // `kubectl taint nodes a b` or `kubectl taint node/a node/b`, as the resource builder accepts them.
  const typed = resources.length > 0 && resources.every((r) => r.includes('/'));
  const kinds = typed ? resources.map((r) => r.split('/')[0]) : resources.slice(0, 1);
  const names = typed ? resources.map((r) => r.split('/').slice(1).join('/')) : resources.slice(1);
  if (kinds.length === 0) throw new KubectlTaintError('InvalidSpec', 'one or more resources must be specified as <resource> <name>');
  const wrongKind = kinds.find((k) => !NODE_KINDS.includes(k));
  if (wrongKind !== undefined) throw new KubectlTaintError('InvalidSpec', `invalid resource type ${wrongKind}, only node types are supported`);
  if (all) return { nodes: 'all', taintSpecs };
  if (selector !== undefined) return { nodes: { labelSelector: selector }, taintSpecs };
  if (names.length === 0) throw new KubectlTaintError('InvalidSpec', 'one or more resources must be specified as <resource> <name>');
  return { nodes: names, taintSpecs };
}
