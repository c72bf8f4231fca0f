import type { Deps } from '../context.ts';
import type { MonitorIndex } from './monitor-index.ts';

/** What the chains and monitors part is built from: the common dependencies and the in-memory index of chain logs and reported events it owns. */
export interface ChainDeps extends Deps {
  monitorIndex: MonitorIndex;
}
