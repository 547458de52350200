/**
 * People watching a session: while anyone watches, each step is published with the game's
 * current frame (at most `maxFramesPerSecond`, so watching costs the session little); with
 * nobody watching, publishing is skipped entirely.
 */
export interface WatchEvent {
  step: number;
  score: number;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  virtualTimeMs: number;
  /** A JPEG data URL of the game canvas, or null when throttled or not a canvas game. */
  frame: string | null;
}

export type WatchListener = (event: WatchEvent) => void;

export class WatchHub {
  private readonly listeners = new Set<WatchListener>();
  private lastFrameAt = 0;

  constructor(
    private readonly captureFrame: () => Promise<string | null>,
    private readonly maxFramesPerSecond = 10,
  ) {}

  get watchers(): number {
    return this.listeners.size;
  }

  /** Returns the function that stops watching. */
  subscribe(listener: WatchListener): () => void {
    this.listeners.add(listener);
    // A new watcher gets a frame at the next step even if one was just sent.
    this.lastFrameAt = 0;
    return () => this.listeners.delete(listener);
  }

  async publish(event: Omit<WatchEvent, 'frame'>): Promise<void> {
    if (this.listeners.size === 0) return;
    const now = Date.now();
    let frame: string | null = null;
    if (now - this.lastFrameAt >= 1000 / this.maxFramesPerSecond) {
      this.lastFrameAt = now;
      frame = await this.captureFrame().catch(() => null);
    }
    for (const listener of [...this.listeners]) listener({ ...event, frame });
  }

  closeAll(): void {
    this.listeners.clear();
  }
}
