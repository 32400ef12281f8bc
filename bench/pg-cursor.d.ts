// pg-cursor ships no types; the floor uses only its constructor and read/close (bench/floor-db.ts).
declare module 'pg-cursor';
