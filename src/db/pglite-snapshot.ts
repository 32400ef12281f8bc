// A freshly migrated PGlite database kept as a file, so a new in-memory database starts from it instead of from initdb.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

interface Dumpable { dumpDataDir(compression?: 'gzip' | 'none' | 'auto'): Promise<Blob> }

/** Beside the installed packages: reinstalling them, or changing the schema, starts a new snapshot. */
const cacheFolder = fileURLToPath(new URL('../../node_modules/.cache/sighting-registry/', import.meta.url));
/** Every file whose change changes the migrated schema. */
const schemaFolders = ['migrations', 'entities'].map((folder) => fileURLToPath(new URL(`./${folder}/`,
  import.meta.url)));

/**
 * What PGlite's `loadDataDir` reads of a Blob: its bytes and type. MikroORM deep-copies its driver options, and a
 * copied Blob loses its contents ("Illegal invocation"); a plain object with a function survives the copy.
 */
export interface TarArchive { type: string; arrayBuffer(): Promise<ArrayBuffer> }

export interface Snapshot {
  /** The migrated database to start from, when one was made before from the same schema. */
  data?: TarArchive;
  /** Keeps the database as it is now, freshly migrated, for the next start. */
  save(pglite: Dumpable): Promise<void>;
}

/** The key: PGlite's version and the schema's files, so a snapshot is only ever loaded into what made it. */
async function snapshotFile(): Promise<string> {
  // The package exports no package.json: it is read beside the module's entry point (dist/index.js).
  const hash = createHash('sha256').update(await readFile(new URL('../package.json',
    import.meta.resolve('@electric-sql/pglite'))));
  for (const folder of schemaFolders) {
    for (const name of (await readdir(folder, { recursive: true })).sort()) {
      if (name.endsWith('.ts')) hash.update(name).update(await readFile(`${folder}${name}`));
    }
  }
  return `${cacheFolder}pglite-${hash.digest('hex').slice(0, 16)}.tar.gz`;
}

/**
 * Each schema change leaves a snapshot behind (about 5 MB); a few are kept for checkouts that switch back and forth.
 */
async function keepNewest(count: number): Promise<void> {
  const snapshots =
    (await readdir(cacheFolder)).filter((name) => /^pglite-\w+\.tar\.gz$/.test(name)).map((name) =>
    `${cacheFolder}${name}`);
  const byAge = (await Promise.all(snapshots.map(async (path) => ({ path,
    mtime: (await stat(path)).mtimeMs })))).sort((a, b) => b.mtime - a.mtime);
  await Promise.all(byAge.slice(count).map(({ path }) => rm(path, { force: true })));
}

export async function pgliteSnapshot(): Promise<Snapshot> {
  const file = await snapshotFile();
  const data = await readFile(file).then(
    (bytes): TarArchive => ({ type: 'application/gzip', arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset,
      bytes.byteOffset + bytes.byteLength) as ArrayBuffer }),
    () => undefined,
  );
  return {
    data,
    async save(pglite) {
      // Written aside and renamed: a service starting meanwhile reads the whole snapshot or none.
      const partial = `${file}.${process.pid}`;
      try {
        const dump = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
        await mkdir(cacheFolder, { recursive: true });
        await writeFile(partial, dump);
        await rename(partial, file);
        await keepNewest(3);
      } catch {
        // A snapshot that cannot be kept (a read-only install, a race with another start) costs the next start its
        // seconds, nothing more.
        await rm(partial, { force: true }).catch(() => {});
      }
    },
  };
}
