-- The Kubernetes API's resourceVersions (src/kube-api/watch/kube-versions.ts) are epoch × 10^9 + a counter
-- each process keeps in commit order; every start takes the next epoch, so a version handed out by an earlier
-- process is always lower than any of this one: a watch resumed from it is answered 410 Gone, never wrongly.
CREATE SEQUENCE "kube_resource_version_epoch";
