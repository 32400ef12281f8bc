// What the application is given by the process that starts it: the long-lived parts it shares with start and stop.
import type { ChangeFeed } from '../feed/change-feed.ts';
import type { StreamShare } from '../db/stream-share.ts';
import type { Drain } from '../http/drain.ts';
import type { ManagementState } from '../management/management.ts';
import type { ReadRouting } from '../db/read-routing.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';

export interface AppServices {
  logger: Logger;
  metrics: Metrics;
  readRouting: ReadRouting;
  state: ManagementState;
  feed: ChangeFeed;
  drain: Drain;
  /** The pool's share for streamed reads, which the feed's catch-up uses too. */
  streamShare: StreamShare;
}
