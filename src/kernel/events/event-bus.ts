import { Injectable } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';

/** One entry of the append-only event log (API and stream shape). */
export interface TaintwiseEvent {
  id: string;
  type: string;
  actor: string;
  requestId: string | null;
  subjectKind: string;
  subjectName: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/**
 * The live stream of events on this replica, fed after each commit here and from other replicas'
 * notifications; SSE (`GET /v1/events`) and GraphQL subscriptions read it.
 */
@Injectable()
export class EventBus {
  private readonly subject = new Subject<TaintwiseEvent>();
  private readonly seen = new Set<string>();
  private readonly seenOrder: string[] = [];

  publish(event: TaintwiseEvent): void {
    if (this.seen.has(event.id)) return; // the same event may arrive from the commit and the feed
    this.seen.add(event.id);
    this.seenOrder.push(event.id);
    if (this.seenOrder.length > 10_000) this.seen.delete(this.seenOrder.shift()!);
    this.subject.next(event);
  }

  get events(): Observable<TaintwiseEvent> {
    return this.subject.asObservable();
  }
}
