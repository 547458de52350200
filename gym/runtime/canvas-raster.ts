/**
 * Rasterising a game's 2D canvases frame by frame when many steps run in one call.
 *
 * Chromium records what a script draws on a 2D canvas and rasterises the recording at the end
 * of the task that drew it, or earlier when the canvas is read. A driver that steps once per
 * call (the gym's envs) gets one raster per frame. A call that runs many steps (a reset's first
 * frames, restoring or verifying an episode, an in-page loop) piled every frame's drawing into
 * one recording, and rasterising that cost far more than rasterising each frame as it came
 * (bench/README.md, Design measurements).
 *
 * So from the second step of a task on (where the runtime config asks for it: rasterEachStep),
 * `beforeStep` reads one pixel of every 2D canvas in the document, which makes each rasterise
 * what the previous step drew. Nothing a game can observe changes (pixels, state, timing, the
 * order of its callbacks), and the first step of a task reads nothing, so a driver that steps
 * once per call pays only a queued microtask. Canvases out of the document are left alone: their
 * drawing is rasterised when it is drawn onto one in it. The APIs used are captured before any
 * game script runs, so a game that replaces them does not change what this does.
 */

export interface CanvasRaster {
  /** Called at the start of every step. */
  beforeStep(): void;
}

export function installCanvasRaster(win: typeof globalThis): CanvasRaster {
  const canvasProto = win.HTMLCanvasElement?.prototype;
  const ctxProto = win.CanvasRenderingContext2D?.prototype;
  const queueMicrotask = win.queueMicrotask?.bind(win);
  if (!canvasProto || !ctxProto || !queueMicrotask || typeof win.WeakRef !== 'function') return { beforeStep: () => undefined };

  const getImageData = ctxProto.getImageData;
  const canvasOf = Object.getOwnPropertyDescriptor(ctxProto, 'canvas')?.get;
  const connected = Object.getOwnPropertyDescriptor(win.Node.prototype, 'isConnected')?.get;
  if (!canvasOf || !connected) return { beforeStep: () => undefined };

  const contexts: WeakRef<CanvasRenderingContext2D>[] = [];
  const seen = new WeakSet<object>();
  const realGetContext = canvasProto.getContext;
  canvasProto.getContext = function (this: HTMLCanvasElement, kind: string, options?: unknown) {
    const ctx = (realGetContext as (k: string, o?: unknown) => RenderingContext | null).call(this, kind, options);
    // getContext hands out the same context every time: track each once.
    if (kind === '2d' && ctx && !seen.has(ctx)) {
      seen.add(ctx);
      contexts.push(new win.WeakRef(ctx as CanvasRenderingContext2D));
    }
    return ctx;
  } as typeof canvasProto.getContext;

  const rasterise = () => {
    for (let i = 0; i < contexts.length; i++) {
      const ctx = contexts[i].deref();
      if (!ctx) {
        contexts.splice(i--, 1);
        continue;
      }
      if (!connected.call(canvasOf.call(ctx))) continue;
      try {
        getImageData.call(ctx, 0, 0, 1, 1);
      } catch {
        // A tainted canvas cannot be read; it is rasterised at the end of the task as before.
      }
    }
  };

  // Microtasks run once the driver's call returns: until then, every step is in the same task.
  let stepInTask = false;
  const taskEnded = () => {
    stepInTask = false;
  };
  return {
    beforeStep() {
      if (stepInTask) {
        rasterise();
        return;
      }
      stepInTask = true;
      queueMicrotask(taskEnded);
    },
  };
}
