-- AlterEnum
ALTER TYPE "EvictionStatus" ADD VALUE 'Held';

-- AlterTable
ALTER TABLE "evictions" ADD COLUMN     "held_at" TIMESTAMPTZ(3),
ADD COLUMN     "held_by" JSONB,
ADD COLUMN     "respect_budgets" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "pods" ADD COLUMN     "labels" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "taints" ADD COLUMN     "respect_budgets" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "pod_disruption_budgets" (
    "id" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "min_available" JSONB,
    "max_unavailable" JSONB,
    "selector" JSONB,
    "unhealthy_pod_eviction_policy" TEXT,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "resource_version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "pod_disruption_budgets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pod_disruption_budgets_uid_key" ON "pod_disruption_budgets"("uid");

-- CreateIndex
CREATE UNIQUE INDEX "pod_disruption_budgets_namespace_name_key" ON "pod_disruption_budgets"("namespace", "name");
