/**
 * Briefly highlights book rows whose amount changed, without a CSS animation. At 20 updates/s with
 * ~20 changed levels each, ~80 rows are lit at any moment, and animations on that many rows kept
 * the browser restyling (and repainting, or compositing one layer per row for an opacity fade)
 * on every frame, also between updates. Here a row gets `data-flash` when its amount changes and
 * loses it at the first book commit after FLASH_MS (a frame that repaints the book anyway) or,
 * once the book stops changing, from one timer.
 *
 * The attribute is set on the DOM element directly; React never renders it, so it never resets it.
 */
export const FLASH_MS = 400;
/** When no commit clears them, lit rows are cleared by a timer this much later. */
const IDLE_SLACK_MS = 150;

export class RowFlashes {
  /** Lit rows and when they go out; re-lighting moves a row to the end, so this is in expiry order. */
  private readonly lit = new Map<HTMLElement, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Lights a row (again) for FLASH_MS. */
  light(row: HTMLElement): void {
    this.lit.delete(row);
    this.lit.set(row, performance.now() + FLASH_MS);
    row.setAttribute('data-flash', '');
    this.schedule();
  }

  /** Puts out the rows whose time has passed; called after every commit of the book. */
  expire(now = performance.now()): void {
    for (const [row, until] of this.lit) {
      if (until > now) break;
      row.removeAttribute('data-flash');
      this.lit.delete(row);
    }
    this.schedule();
  }

  /** Forgets a row that left the book. */
  forget(row: HTMLElement): void {
    this.lit.delete(row);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.lit.clear();
  }

  /** One pending timer at most: it only matters once commits stop coming. */
  private schedule(): void {
    if (this.timer !== undefined) return;
    const first = this.lit.values().next();
    if (first.done) return;
    const wait = Math.max(0, first.value - performance.now()) + IDLE_SLACK_MS;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.expire();
    }, wait);
  }
}
