/**
 * A binary min-heap of node indices ordered by `less`, for the games' level solvers (emoji-sort,
 * sokoban): pure, so the games and their scripted agents search in the same order.
 */
export class IndexHeap {
  private readonly items: number[] = [];

  constructor(private readonly less: (a: number, b: number) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  push(i: number): void {
    const heap = this.items;
    heap.push(i);
    for (let k = heap.length - 1; k > 0; ) {
      const p = (k - 1) >> 1;
      if (!this.less(heap[k], heap[p])) break;
      [heap[k], heap[p]] = [heap[p], heap[k]];
      k = p;
    }
  }

  /** Removes and returns the least index (the heap must not be empty). */
  pop(): number {
    const heap = this.items;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let k = 0; ; ) {
        const l = 2 * k + 1,
          r = l + 1;
        let m = k;
        if (l < heap.length && this.less(heap[l], heap[m])) m = l;
        if (r < heap.length && this.less(heap[r], heap[m])) m = r;
        if (m === k) break;
        [heap[k], heap[m]] = [heap[m], heap[k]];
        k = m;
      }
    }
    return top;
  }
}
