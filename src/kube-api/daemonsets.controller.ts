import { Controller, Get, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError } from '../kernel/errors/app-error';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import { derivedUid } from './object-meta';

/**
 * apps/v1 daemonsets, GET only: taintwise stores no DaemonSets, but `kubectl drain --ignore-daemonsets` asks
 * for the DaemonSet of each DaemonSet pod before it leaves the pod in place. A DaemonSet exists here while an
 * active pod of the namespace names it as its owner; it carries the counts its pods give, nothing else.
 */
@ApiExcludeController()
@Controller('apis/apps/v1')
export class KubeDaemonSetsController {
  constructor(private readonly snapshots: SnapshotService) {}

  @Get('namespaces/:ns/daemonsets/:name')
  get(@Param('ns') ns: string, @Param('name') name: string) {
    const pods = this.snapshots.snapshot.podsOwnedBy(ns, 'DaemonSet', name);
    if (pods.length === 0) throw new AppError('NotFound', `daemonsets.apps "${name}" not found`);
    const scheduled = pods.filter((p) => p.nodeName !== null).length;
    const ready = pods.filter((p) => p.phase === 'Running').length;
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name, namespace: ns, uid: derivedUid(ns, 'DaemonSet', name) },
      spec: { selector: {}, template: { spec: { containers: [] } } },
      status: {
        currentNumberScheduled: scheduled,
        desiredNumberScheduled: scheduled,
        numberMisscheduled: 0,
        numberReady: ready,
      },
    };
  }
}
