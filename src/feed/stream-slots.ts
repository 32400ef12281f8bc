// How many change-feed streams one instance holds, in all and per caller
// (docs/behaviour.md#streams-and-clients-that-leave): checked and taken in one step.

export type SlotRefusal = 'instance-full' | 'caller-full';

export class StreamSlots {
  readonly #max: number;
  readonly #perCaller: number;
  #taken = 0;
  readonly #byCaller = new Map<string, number>();

  readonly #counted: (taken: number) => void;

  /** `counted` hears the number of slots taken each time it changes. */
  constructor(max: number, perCaller: number, counted: (taken: number) => void = () => {}) {
    this.#max = max;
    this.#perCaller = perCaller;
    this.#counted = counted;
  }

  /**
   * Takes a slot for `caller` (a token subject), or says why not. Freed with `free`, once: no function per slot, which
   * an open stream would hold for its whole life.
   */
  take(caller: string): SlotRefusal | undefined {
    if (this.#taken >= this.#max) return 'instance-full';
    const held = this.#byCaller.get(caller) ?? 0;
    if (held >= this.#perCaller) return 'caller-full';
    this.#taken += 1;
    this.#byCaller.set(caller, held + 1);
    this.#counted(this.#taken);
    return undefined;
  }

  /** Frees a slot `take` gave `caller`. */
  free(caller: string): void {
    const left = (this.#byCaller.get(caller) ?? 0) - 1;
    if (left < 0) return;
    this.#taken -= 1;
    if (left) this.#byCaller.set(caller, left);
    else this.#byCaller.delete(caller);
    this.#counted(this.#taken);
  }
}
