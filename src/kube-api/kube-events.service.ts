import { Inject, Injectable } from '@nestjs/common';
import { EventHistoryService } from '../events/event-history.service';
import { CLOCK } from '../kernel/tokens';
import type { Clock } from '../kernel/timers/clock';
import { compileFieldSelector, pinnedValue } from './field-selector';
import { kubeLimit } from './list-limit';
import { toKubeEvent, type KubeEvent } from './event-object';
import type { ListOptions } from './kube-nodes.service';
import { ageCell, rowObject, type Table, type TableColumn } from './table';

/** pkg/registry/core/event/strategy.go ToSelectableFields (the ones kubectl describe and users send). */
export const EVENT_FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'involvedObject.kind',
  'involvedObject.name',
  'involvedObject.namespace',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
];
const PAGE = 1000;

/** core/v1 events, read from taintwise's event log (oldest first); the object's name and kind go to the query. */
@Injectable()
export class KubeEventsService {
  constructor(
    private readonly history: EventHistoryService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(namespace: string | undefined, options: ListOptions): Promise<{ items: KubeEvent[]; continue?: string }> {
    const fields = compileFieldSelector(options.fieldSelector, EVENT_FIELDS);
    const kind = pinnedValue(options.fieldSelector, 'involvedObject.kind');
    const name = pinnedValue(options.fieldSelector, 'involvedObject.name');
    const objectNamespace = pinnedValue(options.fieldSelector, 'involvedObject.namespace') || namespace;
    const subjectName =
      name === undefined ? undefined : kind === 'Pod' && objectNamespace ? `${objectNamespace}/${name}` : name;
    const uid = pinnedValue(options.fieldSelector, 'involvedObject.uid');
    const limit = kubeLimit(options.limit);
    const items: KubeEvent[] = [];
    let token = options.continue;
    for (;;) {
      const page = await this.history.history({
        subjectKind: kind,
        subjectName: kind === 'Pod' || kind === 'Node' ? subjectName : undefined,
        limit: limit ?? PAGE,
        continue: token,
      });
      for (const e of page.items) {
        const k = toKubeEvent(e);
        if (namespace !== undefined && k.metadata.namespace !== namespace) continue;
        // The event log keeps the object's name, not its uid: a uid selector (kubectl describe sends one)
        // is satisfied by the name and kind, which are checked.
        if (!fields({ ...selectableEvent(k), 'involvedObject.uid': uid ?? '' })) continue;
        items.push(k);
      }
      if (limit !== undefined || !page.continue) return { items, continue: page.continue };
      token = page.continue;
    }
  }

  table(items: KubeEvent[], include: string | undefined, meta: Table['metadata']): Table {
    const now = this.clock.now();
    return {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: meta,
      columnDefinitions: EVENT_COLUMNS,
      rows: items.map((e) => ({
        cells: [
          ageCell(e.lastTimestamp, now),
          e.type,
          e.reason,
          `${e.involvedObject.kind.toLowerCase()}/${e.involvedObject.name}`,
          '',
          e.source.component,
          e.message,
          ageCell(e.firstTimestamp, now),
          e.count,
          e.metadata.name,
        ],
        object: rowObject(e, include),
      })),
    };
  }
}

const col = (name: string, type: string, priority: number): TableColumn => ({
  name,
  type,
  format: '',
  description: name,
  priority,
});
/** printers.go eventColumnDefinitions. */
const EVENT_COLUMNS: TableColumn[] = [
  col('Last Seen', 'string', 0),
  col('Type', 'string', 0),
  col('Reason', 'string', 0),
  col('Object', 'string', 0),
  col('Subobject', 'string', 1),
  col('Source', 'string', 1),
  col('Message', 'string', 0),
  col('First Seen', 'string', 1),
  col('Count', 'string', 1),
  col('Name', 'string', 1),
];

export function selectableEvent(e: KubeEvent): Record<string, string> {
  return {
    'metadata.name': e.metadata.name,
    'metadata.namespace': e.metadata.namespace,
    'involvedObject.kind': e.involvedObject.kind,
    'involvedObject.name': e.involvedObject.name,
    'involvedObject.namespace': e.involvedObject.namespace ?? '',
    'involvedObject.uid': '',
    'involvedObject.apiVersion': 'v1',
    'involvedObject.resourceVersion': '',
    'involvedObject.fieldPath': '',
    reason: e.reason,
    reportingComponent: e.reportingComponent,
    source: e.source.component,
    type: e.type,
  };
}
