import { Module } from '@nestjs/common';
import { BenchOpsController } from './bench-ops.controller';
import { OpsController } from './ops.controller';

@Module({ controllers: [OpsController, BenchOpsController] })
export class OpsModule {}
