/** Polls until `read` gives a value `ok` accepts, or the time is up: for work the server finishes after answering. */
export async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Polls until `check` gives something other than undefined; as long as `until` waits (a mail on a
 * loaded machine can take longer than a quiet one's 5 s).
 */
export function eventually<T>(check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  return until(check, (value) => value !== undefined, timeoutMs) as Promise<T>;
}
