-- AlterTable
ALTER TABLE "evictions" ADD COLUMN     "forecast" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "forecast_error_ms" INTEGER;

-- AlterTable
ALTER TABLE "nodes" ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'local';

-- AlterTable
ALTER TABLE "pod_disruption_budgets" ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'local';

-- AlterTable
ALTER TABLE "pods" ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'local';
