// Tells this process's change feed that a change was just committed here: it reads it at once, without waiting
// for PostgreSQL's notification (and on PGlite, where this process is the only writer, instead of one).
type Listener = () => void;
const listeners = new Set<Listener>();

export function onCommit(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalCommit(): void {
  for (const listener of listeners) listener();
}
