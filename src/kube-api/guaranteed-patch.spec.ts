import { AppError } from '../kernel/errors/app-error';
import { guaranteedPatch, type PatchTarget } from './guaranteed-patch';

interface Stored {
  resourceVersion: string;
  labels: Record<string, string>;
}

/** An in-memory object whose writes lose `races` times to a concurrent writer before one lands. */
function target(races: number) {
  const state: Stored = { resourceVersion: '1', labels: {} };
  const writes: Array<Record<string, unknown>> = [];
  const t: PatchTarget<Stored, Record<string, unknown>, Stored> = {
    read: async () => structuredClone(state),
    show: (s) => ({ metadata: { resourceVersion: `k${s.resourceVersion}`, labels: s.labels } }),
    toBody: (patched) => ({ labels: (patched.metadata as { labels: Record<string, string> }).labels }),
    versionFor: (sent) => (sent === `k${state.resourceVersion}` ? state.resourceVersion : 'stale'),
    write: async (_s, body) => {
      writes.push(body);
      if (races > 0 || body.resourceVersion !== state.resourceVersion) {
        races--;
        state.resourceVersion = String(Number(state.resourceVersion) + 1); // the concurrent writer's version
        throw new AppError('Conflict', 'the object has been modified');
      }
      state.labels = body.labels as Record<string, string>;
      state.resourceVersion = String(Number(state.resourceVersion) + 1);
      return structuredClone(state);
    },
  };
  return { t, writes, state };
}

const addLabel = (resourceVersion?: string) => ({
  metadata: { labels: { team: 'a' }, ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
});

describe('guaranteedPatch (apiserver GuaranteedUpdate: re-apply a patch that lost a race, never a pinned one)', () => {
  it.each([
    { races: 0, writes: 1 },
    { races: 1, writes: 2 },
    { races: 4, writes: 5 },
  ])('an unpinned patch losing $races race(s) lands after $writes write(s)', async ({ races, writes }) => {
    const { t, writes: seen, state } = target(races);
    await expect(guaranteedPatch(t, 'merge', addLabel())).resolves.toMatchObject({ labels: { team: 'a' } });
    expect(seen).toHaveLength(writes);
    expect(state.labels).toEqual({ team: 'a' });
  });

  it('gives up with Conflict after five lost races', async () => {
    const { t, writes, state } = target(5);
    await expect(guaranteedPatch(t, 'merge', addLabel())).rejects.toMatchObject({ kind: 'Conflict' });
    expect(writes).toHaveLength(5);
    expect(state.labels).toEqual({});
  });

  it('a patch that sets a stale metadata.resourceVersion is a precondition: one try, Conflict', async () => {
    const { t, writes } = target(0);
    await expect(guaranteedPatch(t, 'merge', addLabel('k0'))).rejects.toMatchObject({ kind: 'Conflict' });
    expect(writes).toEqual([{ labels: { team: 'a' }, resourceVersion: 'stale' }]);
  });

  it('resourceVersion "" is no precondition: it applies to the latest, race or not', async () => {
    const { t, writes } = target(1);
    await expect(guaranteedPatch(t, 'merge', addLabel(''))).resolves.toMatchObject({ labels: { team: 'a' } });
    expect(writes).toHaveLength(2);
  });

  it('the current resourceVersion applies; once a race moved the object on, it is stale (Conflict)', async () => {
    await expect(guaranteedPatch(target(0).t, 'merge', addLabel('k1'))).resolves.toMatchObject({
      labels: { team: 'a' },
    });
    const raced = target(1);
    await expect(guaranteedPatch(raced.t, 'merge', addLabel('k1'))).rejects.toMatchObject({ kind: 'Conflict' });
    expect(raced.writes).toHaveLength(2);
  });

  it('an error other than Conflict is not retried', async () => {
    const { t } = target(0);
    let calls = 0;
    t.write = async () => {
      calls++;
      throw new AppError('Invalid', 'no');
    };
    await expect(guaranteedPatch(t, 'merge', addLabel())).rejects.toMatchObject({ kind: 'Invalid' });
    expect(calls).toBe(1);
  });
});
