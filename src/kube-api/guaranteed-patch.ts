import { AppError } from '../kernel/errors/app-error';
import { applyPatch, type PatchType } from './apply-patch';

/** A patch that lost a race is re-applied to the newer object (the API server's GuaranteedUpdate), then Conflict. */
const PATCH_ATTEMPTS = 5;

/** How one kind is read, shown, turned into a write body and written. */
export interface PatchTarget<
  Stored extends { resourceVersion: string },
  Body extends { resourceVersion?: unknown },
  Out,
> {
  read(): Promise<Stored>;
  /** The object as the Kubernetes API shows it, which the patch applies to. */
  show(stored: Stored): { metadata: { resourceVersion?: string } };
  toBody(patched: Record<string, unknown>): Body;
  /** The stored version that a Kubernetes resourceVersion the client sent stands for (a stale one never matches). */
  versionFor(sent: string, stored: Stored): string;
  write(stored: Stored, body: Body): Promise<Out>;
}

/**
 * PATCH as apiserver's patcher does it: apply the patch to the latest object and write it; when a concurrent
 * write wins the race, apply it again to the newer object. A patch that sets metadata.resourceVersion is a
 * precondition: it is checked against the version the client saw and never retried (its Conflict is the answer).
 */
export async function guaranteedPatch<
  Stored extends { resourceVersion: string },
  Body extends { resourceVersion?: unknown },
  Out,
>(target: PatchTarget<Stored, Body, Out>, type: PatchType, patch: unknown): Promise<Out> {
  for (let attempt = 1; ; attempt++) {
    const current = await target.read();
    const original = target.show(current);
    const patched = applyPatch(type, original as unknown as Record<string, unknown>, patch) as {
      metadata?: { resourceVersion?: unknown };
    };
    const body = target.toBody(patched as Record<string, unknown>);
    const sent = patched.metadata?.resourceVersion;
    const pinned = sent !== undefined && sent !== '' && sent !== original.metadata.resourceVersion;
    body.resourceVersion = pinned ? target.versionFor(String(sent), current) : current.resourceVersion;
    try {
      return await target.write(current, body);
    } catch (e) {
      if (pinned || attempt >= PATCH_ATTEMPTS || !(e instanceof AppError) || e.kind !== 'Conflict') throw e;
    }
  }
}
