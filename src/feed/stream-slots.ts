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

  /** Takes a slot for `caller` (a token subject), or says why not; the function returned frees it, once. */
  take(caller: string): (() => void) | SlotRefusal {
    if (this.#taken >= this.#max) return 'instance-full';
    const held = this.#byCaller.get(caller) ?? 0;
    if (held >= this.#perCaller) return 'caller-full';
    this.#taken += 1;
    this.#byCaller.set(caller, held + 1);
    this.#counted(this.#taken);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.#taken -= 1;
      const left = this.#byCaller.get(caller)! - 1;
      if (left) this.#byCaller.set(caller, left);
      else this.#byCaller.delete(caller);
      this.#counted(this.#taken);
    };
  }
}
