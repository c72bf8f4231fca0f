/** A chain log's id: `${chain}:${block (20 digits)}:${logIndex (6 digits)}`, so ids sort as the chain orders its logs. */
export const logId = (chain: string, block: bigint | string, logIndex: number) =>
  `${chain}:${String(block).padStart(20, '0')}:${String(logIndex).padStart(6, '0')}`;
