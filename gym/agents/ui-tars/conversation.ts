/**
 * The chat a vision model sees: the instructions, then the last `history` turns (each its
 * screenshot and the model's reply), then the current screenshot. Older turns are dropped
 * whole, so a request carries at most history + 1 images whatever the episode length.
 */

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };
export type ChatMessage = { role: 'system'; content: string } | { role: 'user'; content: ContentPart[] } | { role: 'assistant'; content: string };

interface Turn {
  note: string;
  image: string;
  reply: string;
}

export class Conversation {
  private turns: Turn[] = [];

  constructor(
    private readonly history: number,
    private readonly detail?: 'auto' | 'low' | 'high',
  ) {}

  reset(): void {
    this.turns = [];
  }

  /** The request for the current turn: `note` is text shown with the screenshot (step, feedback). */
  messages(system: string, note: string, imageUrl: string): ChatMessage[] {
    const out: ChatMessage[] = [{ role: 'system', content: system }];
    for (const t of this.turns) {
      out.push({ role: 'user', content: this.userContent(t.note, t.image) });
      out.push({ role: 'assistant', content: t.reply });
    }
    out.push({ role: 'user', content: this.userContent(note, imageUrl) });
    return out;
  }

  /** Keeps a finished turn, dropping the oldest beyond the history length. */
  record(note: string, imageUrl: string, reply: string): void {
    if (this.history <= 0) return;
    this.turns.push({ note, image: imageUrl, reply });
    if (this.turns.length > this.history) this.turns.splice(0, this.turns.length - this.history);
  }

  private userContent(note: string, url: string): ContentPart[] {
    const parts: ContentPart[] = [];
    if (note) parts.push({ type: 'text', text: note });
    parts.push({ type: 'image_url', image_url: this.detail ? { url, detail: this.detail } : { url } });
    return parts;
  }
}
