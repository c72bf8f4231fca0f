import type { Tag } from './decisions.ts';

/** One way the service's answer differs from the simulator's, with both values and who answers for it. */
export interface Difference {
  /** What differs: status, error code, message, a header, a field, a relation, the description. */
  aspect: 'status' | 'code' | 'message' | 'header' | 'field' | 'type' | 'form' | 'enum' | 'relation' | 'description';
  /** Where: a path in the body (`quote.contractHash`), a header name, a relation. */
  where: string;
  service: string;
  simulator: string;
  tag: Tag;
}
