/**
 * How a queue job handler says what happened besides returning a result. The BullMQ adapter maps
 * them to the SDK's own mechanisms, so the handler never imports the SDK.
 */

/** The job must not run here at all (it would widen the sandbox): failed at once, no retries. */
export class JobRefused extends Error {}

/** This worker is shutting down before the job could finish: put it back for another worker, no attempt used. */
export class JobGivenBack extends Error {}
