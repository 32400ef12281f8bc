// A text as a socket may hand it over: for the tests of readers that take a body in pieces.

/** Every way of cutting `text` in two, and in pieces of every length from 1 to `longest`. */
export function cuts(text: string, longest: number): string[][] {
  const ways: string[][] = [];
  for (let at = 0; at <= text.length; at += 1) ways.push([text.slice(0, at), text.slice(at)]);
  for (let size = 1; size <= longest; size += 1) {
    ways.push(Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size)));
  }
  return ways;
}
