// The part of pg-cursor's documented API (its README: constructor, read, close) used here; the package ships no types.
declare module 'pg-cursor' {
  import type { Submittable } from 'pg';

  export default class Cursor implements Submittable {
    constructor(text: string, values?: unknown[]);
    submit(connection: never): void;
    read(rows: number): Promise<unknown[]>;
    close(): Promise<void>;
  }
}
