import { Global, Module } from '@nestjs/common';
import { MirrorService } from './mirror.service';

/**
 * Following a live cluster (README "Mirror a cluster"). Imported by the composition root only when
 * SYNC_KUBECONFIG is set: without it nothing of this runs. Global: the taint mutations ask it (optionally) for
 * write-through.
 */
@Global()
@Module({
  providers: [MirrorService],
  exports: [MirrorService],
})
export class MirrorModule {}
