/**
 * Wording a failed call of an api that comes in its own chunk (issue 12: a public page's first
 * load carries no api client): the chunk is loaded (it usually is already, the call that failed
 * ran through it) and words the error; when the chunk itself cannot load (offline, a deploy
 * replaced it) the caller's fallback is shown instead, so a failure always has a message.
 */

/** How a loaded api words an error (`fallback` for one it has no wording of its own for). */
export type WordFailure<Api> = (api: Api, error: unknown, fallback: string) => string;

/**
 * A `(error, fallback) => Promise<message>` over the api that `load` brings (a dynamic import):
 * `word`'s message when it loads, `fallback` when it does not. Never rejects for a failed load.
 */
export function lazyFailureMessage<Api>(load: () => Promise<Api>, word: WordFailure<Api>): (error: unknown, fallback: string) => Promise<string> {
  return (error, fallback) =>
    load().then(
      (api) => word(api, error, fallback),
      () => fallback,
    );
}
