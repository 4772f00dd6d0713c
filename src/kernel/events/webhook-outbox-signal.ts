import { Injectable } from '@nestjs/common';

/**
 * Tells this replica's webhook worker that a commit wrote outbox rows, so it delivers them now instead
 * of at its next poll. Only a wake-up: the rows are the outbox, and the worker's poll finds them
 * without this (other replicas' rows, a restart).
 */
@Injectable()
export class WebhookOutboxSignal {
  private readonly listeners = new Set<() => void>();

  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  enqueued(): void {
    for (const listener of this.listeners) listener();
  }
}
