// The instance's change feed, woken by PostgreSQL's notifications when there is a server to listen to.
import type { MikroORM } from '@mikro-orm/core';
import { directUrl, type Config } from '../config/config.ts';
import type { Logger } from '../observability/logger.ts';
import { ChangeFeed } from './change-feed.ts';
import type { StreamShare } from '../db/stream-share.ts';
import { listenForChanges } from './change-notifications.ts';
import { announceCommits } from './commit-announcer.ts';

export async function startChangeFeed(
  orm: MikroORM,
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DB_CONNECT_TIMEOUT_MS'>,
  logger: Logger,
  share: StreamShare,
): Promise<{ feed: ChangeFeed; listening(): boolean | undefined; stop(): Promise<void> }> {
  // Streams catching up read the history within the share of the pool whole lists read in: the rest answers
  // everything else.
  const feed = new ChangeFeed(orm, { catchUpShare: share, logger });
  // PGlite lives in this process, which is then its only writer: commits here wake the feed (src/db/commit-signal.ts).
  // LISTEN is a session's: through a transaction pooler it is dropped without a word, so it goes straight to the
  // server.
  const url = directUrl(config);
  const notifications = url
    ? listenForChanges({ url, connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS, logger }, () => feed.wake())
    : undefined;
  // Other instances learn of this one's commits from it; PGlite has none.
  const announcer = url ? announceCommits(orm, logger) : undefined;
  try {
    await feed.start();
  } catch (error) {
    notifications?.close();
    await announcer?.stop();
    throw error;
  }
  return {
    feed,
    // PGlite's feed is woken in-process (src/db/commit-signal.ts): it has no listener to report.
    listening: () => notifications?.listening,
    async stop() {
      feed.stop();
      notifications?.close();
      await announcer?.stop();
    },
  };
}
