// The allowed arrows between the layers of src/ (docs/ARCHITECTURE.md explains them):
//   domain  -> domain only (pure Kubernetes rules)
//   kernel  -> domain, kernel (shared infrastructure: persistence, snapshot, timers, HTTP and GraphQL plumbing)
//   feature -> domain, kernel, its own files, and another feature only through that feature's public
//              surface: its *.service.ts files and its Nest *.module.ts
//   decisions never reach persistence: they answer from the in-memory snapshot
// and no import circles anywhere. `npm run lint:deps` checks it in CI.
const FEATURES = '(inventory|taints|evictions|decisions|events|ops|kube-api|budgets|webhooks|mirror)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle makes load order matter and hides which part depends on which.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-stays-pure',
      severity: 'error',
      comment: 'src/domain holds the Kubernetes rules as pure functions: it imports nothing outside itself.',
      from: { path: '^src/domain/', pathNot: '[.]spec[.]ts$' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'kernel-knows-no-feature',
      severity: 'error',
      comment: 'The shared kernel serves every feature, so it may not depend on any of them.',
      from: { path: '^src/kernel/' },
      to: { path: `^src/${FEATURES}/` },
    },
    {
      name: 'features-meet-through-services',
      severity: 'error',
      comment: "A feature reaches another only through that feature's services (or its Nest module).",
      from: { path: `^src/${FEATURES}/` },
      to: { path: `^src/${FEATURES}/`, pathNot: ['^src/$1/', '[.]service[.]ts$', '[.]module[.]ts$'] },
    },
    {
      name: 'decisions-read-the-snapshot',
      severity: 'error',
      comment: 'Decisions answer from the in-memory snapshot, never from the database.',
      from: { path: '^src/decisions/' },
      to: { path: '^src/kernel/persistence/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
