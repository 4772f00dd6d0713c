/**
 * Kubernetes manifests (`kubectl get nodes,pods -A -o json|yaml`, `kubectl cluster-info dump`) → taintwise inputs.
 * Pure.
 */
export { decodeManifests, parserForContentType, type DecodeResult, type ManifestFormat } from './decode';
export { mapManifests, type ImportSummary, type MapResult, type SkippedKind } from './map-manifests';
export { parseImportBody, type ImportParseResult } from './import-manifests';
export type { ImportError, NodeInput, PodInput, PodPhase, TextPosition } from './inventory-input';
