import { createElement, lazy, type ComponentType } from "react";

/**
 * A screen whose code is a chunk of its own, which can start loading before the screen is drawn.
 * Once loaded it renders straight away: React.lazy would suspend once more on first render, and
 * React holds a Suspense boundary's content back for up to half a second after its fallback.
 */
export function lazyPage<M, P extends object = object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = pick(module);
      return loaded;
    });
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Page(props: P) {
    return createElement((loaded ?? Lazy) as ComponentType<P>, props);
  }
  return { Page, preload };
}
