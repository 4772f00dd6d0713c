/** A Kubernetes object as JSON. */
export type K8sObject = Record<string, any>;
