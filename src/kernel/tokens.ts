/** Injection tokens of the process-wide infrastructure (CoreModule). */
export const DATABASE = Symbol('DATABASE');
export const DELAYED_JOBS = Symbol('DELAYED_JOBS');
export const CLOCK = Symbol('CLOCK');
export const REPLICA_ID = Symbol('REPLICA_ID');
