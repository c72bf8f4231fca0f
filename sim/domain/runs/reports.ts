import { createHash } from 'node:crypto';
import type { Listing } from '../catalog/catalog-types.ts';
import type { RunRecord } from './records.ts';
import { CANONICAL_FACTS } from './settlement.ts';

/**
 * The report inside a run's output, shaped per agent kind. Findings are derived
 * from a hash of the input, so the same input always yields the same report.
 */
const digest = (...parts: string[]) => createHash('sha256').update(parts.join('|')).digest('hex');

const SYMBOLS = ['USDX', 'WAVE', 'NODE', 'LQD', 'GOV', 'PRM', 'ORB', 'FLUX'];
const SEVERITIES = ['info', 'low', 'medium', 'high'] as const;

function findings(listing: Listing, seed: string, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const h = digest(seed, String(i));
    return {
      id: `F-${i + 1}`,
      severity: SEVERITIES[parseInt(h.slice(0, 2), 16) % SEVERITIES.length],
      title: `${listing.topics[i % listing.topics.length] ?? listing.category} check ${i + 1}`,
      detail: `${listing.name} observed ${parseInt(h.slice(2, 6), 16)} related records; reference ${h.slice(6, 18)}.`,
    };
  });
}

function tokenReport(run: RunRecord) {
  const address = String(run.input.address);
  const h = digest('token', address);
  const pinned = run.pinned!;
  const evidence = (method: string, selector: string | null) => ({ method, selector, blockNumber: pinned.blockNumber, blockHash: pinned.blockHash, status: 'ok' });
  const gaps = run.plan.coverageGaps;
  const fact = <T>(name: string, value: T, method: string, selector: string | null) =>
    gaps.includes(name) ? { observed: false, reason: 'The call reverted at the pinned block.' } : { observed: true, value, evidence: evidence(method, selector) };
  return {
    kind: 'token-research',
    chain: pinned.chain,
    address,
    scope: run.input.scope,
    pinnedBlock: { number: pinned.blockNumber, hash: pinned.blockHash },
    facts: {
      name: fact('name', `${SYMBOLS[parseInt(h.slice(0, 2), 16) % SYMBOLS.length]} Token`, 'eth_call', '0x06fdde03'),
      symbol: fact('symbol', SYMBOLS[parseInt(h.slice(0, 2), 16) % SYMBOLS.length], 'eth_call', '0x95d89b41'),
      decimals: fact('decimals', [6, 8, 18][parseInt(h.slice(2, 4), 16) % 3], 'eth_call', '0x313ce567'),
      totalSupply: fact('totalSupply', (BigInt(`0x${h.slice(4, 20)}`) * 10n ** 6n).toString(), 'eth_call', '0x18160ddd'),
      bytecode: fact('bytecode', { codeHash: `0x${digest('code', address)}`, sizeBytes: 2048 + (parseInt(h.slice(20, 24), 16) % 20_000) }, 'eth_getCode', null),
    },
    controls: gaps.includes('controls')
      ? { observed: false, reason: 'Owner and proxy slots could not be read within the run budget.' }
      : { observed: true, owner: `0x${h.slice(24, 64)}`, upgradeable: parseInt(h.slice(0, 1), 16) % 2 === 0, pausable: parseInt(h.slice(1, 2), 16) % 2 === 0 },
    coverageGaps: gaps,
    canonicalFacts: CANONICAL_FACTS,
  };
}

/** The report, made to weigh the plan's outputBytes (when it asks for more than it has) with a filler `appendix`. */
export function writeReport(run: RunRecord, listing: Listing): Record<string, unknown> {
  const report = buildReport(run, listing);
  const wanted = run.plan.outputBytes;
  if (wanted === undefined) return report;
  const bytes = reportBytes({ ...report, appendix: '' });
  return wanted > bytes ? { ...report, appendix: '.'.repeat(wanted - bytes) } : report;
}

export const reportBytes = (report: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(report));

function buildReport(run: RunRecord, listing: Listing): Record<string, unknown> {
  const seed = JSON.stringify(run.input);
  const gaps = run.plan.coverageGaps;
  switch (listing.agentKind) {
    case 'token_research':
      return tokenReport(run);
    case 'research_workflow':
      return {
        kind: 'research-workflow',
        workflow: run.input.workflow,
        chain: run.input.chain,
        values: run.input.values,
        findings: findings(listing, seed, 3),
        sources: [`block-range:${run.pinned?.blockNumber ?? 'latest'}`],
        coverageGaps: gaps,
      };
    case 'solana_transaction_inspection': {
      const payload = String(run.input.payloadBase64);
      const h = digest('solana', payload);
      return {
        kind: 'solana-transaction-inspection',
        network: run.input.network,
        payloadBytes: Buffer.from(payload, 'base64').length,
        signatureCount: 1 + (parseInt(h.slice(0, 2), 16) % 3),
        instructions: Array.from({ length: 1 + (parseInt(h.slice(2, 4), 16) % 4) }, (_, i) => ({ index: i, program: ['system', 'spl-token', 'compute-budget', 'associated-token'][(parseInt(h.slice(4 + i, 5 + i), 16)) % 4] })),
        findings: findings(listing, seed, 2),
        coverageGaps: gaps,
      };
    }
    case 'named_fields':
      return { kind: 'agent-report', agent: listing.name, input: run.input, findings: findings(listing, seed, 3), coverageGaps: gaps };
  }
}
