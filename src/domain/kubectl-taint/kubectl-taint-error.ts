/**
 * Why a `kubectl taint` request is refused (SEMANTICS B.3). The transports map the code to a status:
 * - `InvalidSpec`: a spec kubectl cannot parse (`invalid taint spec: ...`, `invalid taint effect: ...`),
 *   or the same (key, effect) added twice in one command (`duplicated taints with the same key and effect`);
 * - `AddAndRemove`: one command both adds and removes the same taint;
 * - `AlreadyExists`: an added (key, effect) is on the node and `overwrite` is false;
 * - `NotFound`: a removal matches no taint on the node.
 * The message is kubectl's, word for word.
 */
export type KubectlTaintErrorCode = 'InvalidSpec' | 'AddAndRemove' | 'AlreadyExists' | 'NotFound';

export class KubectlTaintError extends Error {
  override readonly name = 'KubectlTaintError';

  constructor(
    readonly code: KubectlTaintErrorCode,
    message: string,
    /** The node the change was refused on, for `AlreadyExists` and `NotFound`. */
    readonly node?: string,
  ) {
    super(message);
  }
}
