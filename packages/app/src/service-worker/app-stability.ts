/** Settles once the window's load event has fired (at once if it already has). */
export function windowLoaded(target: Window): Promise<void> {
  if (target.document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    target.addEventListener(
      'load',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}

/** A promise plus the function that settles it, for "the first render was committed". */
export function createSignal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}
