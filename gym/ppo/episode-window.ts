/** The last `size` finished episodes (raw returns and lengths), for moving-average logging. */
export class EpisodeWindow {
  returns: number[] = [];
  lengths: number[] = [];
  total = 0;

  constructor(readonly size: number) {}

  push(ret: number, length: number): void {
    this.returns.push(ret);
    this.lengths.push(length);
    this.total++;
    if (this.returns.length > this.size) {
      this.returns.shift();
      this.lengths.shift();
    }
  }

  get full(): boolean {
    return this.returns.length >= this.size;
  }

  meanReturn(): number | null {
    return this.returns.length ? this.returns.reduce((a, b) => a + b, 0) / this.returns.length : null;
  }

  meanLength(): number | null {
    return this.lengths.length ? this.lengths.reduce((a, b) => a + b, 0) / this.lengths.length : null;
  }
}
