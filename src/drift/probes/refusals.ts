import { open, stated } from '../decisions.ts';
import { MONITOR_LIST, NOTIFICATION_LIST } from '../spec-fields.ts';
import type { ProbeRequest } from '../wire.ts';
import type { ProbeDef, SideContext } from './types.ts';

const unknownRead = (id: string, title: string, path: (ctx: SideContext) => string, message = stated('7')): ProbeDef => ({
  id,
  title,
  kind: 'read',
  expect: { status: stated('7'), code: open('error-codes'), message },
  request: (ctx) => (ctx.key ? { method: 'GET', path: path(ctx), keyed: true } : { skip: 'the key could not be read' }),
});

/** The reads a scope grants (spec 5), in the order the missing-scope probe tries them; never a cancel. */
const SCOPE_READS: { scope: string; path: (ctx: SideContext) => string }[] = [
  { scope: 'runs:read', path: (ctx) => `/v1/runs/${ctx.unknownId}` },
  { scope: 'billing:read', path: (ctx) => `/v1/runs/${ctx.unknownId}/receipt` },
  { scope: 'catalog:read', path: (ctx) => `/v1/${ctx.key!.rail}/catalog` },
  { scope: 'monitors:read', path: () => '/v1/monitors' },
];

function missingScope(ctx: SideContext): ProbeRequest | { skip: string } {
  if (!ctx.key) return { skip: 'the key could not be read' };
  const read = SCOPE_READS.find((r) => !ctx.key!.scopes.includes(r.scope));
  if (!read) return { skip: 'the key holds every scope that grants a read' };
  return { method: 'GET', path: read.path(ctx), keyed: true };
}

const ethOnly = (ctx: SideContext, request: ProbeRequest): ProbeRequest | { skip: string } => {
  if (!ctx.key) return { skip: 'the key could not be read' };
  return ctx.key.profile === 'local_custody' ? request : { skip: 'monitor routes answer ETH keys only (spec 4)' };
};

/** A body that passes every rule of 4.10–4.11, so only "production refuses keys" can refuse it. */
const monitorBody = (idempotencyKey: string) => ({
  name: 'drift check',
  chain: 'ethereum',
  rules: [{ id: 'transfers', type: 'erc20-transfer', token: '0x6b175474e89094c44da98b954eedeac495271d0f' }],
  durationSeconds: 60,
  tickBudget: 1,
  rpcBudget: 10,
  idempotencyKey,
});

/** Reads of ids that do not exist, refusals of keys and scopes, and the monitor routes of ETH keys. */
export function refusalProbes(monitorKey: string): ProbeDef[] {
  return [
    unknownRead('run-unknown', 'a run that does not exist', (ctx) => `/v1/runs/${ctx.unknownId}`),
    // Part 7 words both "This run was not found." and "This run has no settlement receipt."; which one an unknown run gets is open.
    unknownRead('receipt-unknown', 'the receipt of a run that does not exist', (ctx) => `/v1/runs/${ctx.unknownId}/receipt`, open('messages')),
    unknownRead('export-unknown', 'the export of a run that does not exist', (ctx) => `/v1/runs/${ctx.unknownId}/export`),
    unknownRead('billing-unknown', 'the billing of a run that does not exist', (ctx) => `/v1/${ctx.key!.rail}/runs/${ctx.unknownId}/billing`),
    {
      id: 'route-refuses-keys',
      title: 'the run list, a web-session route (refuses keys)',
      kind: 'read',
      expect: { status: stated('5'), code: stated('7'), message: stated('7') },
      request: () => ({ method: 'GET', path: '/v1/runs', keyed: true }),
    },
    { id: 'scope-missing', title: 'a read whose scope the key lacks', kind: 'read', expect: { status: stated('5'), code: stated('7'), message: stated('7') }, request: missingScope },
    { id: 'monitors-list', title: 'GET /v1/monitors', kind: 'read', expect: { status: stated('4.13'), answer: MONITOR_LIST }, request: (ctx) => ethOnly(ctx, { method: 'GET', path: '/v1/monitors', keyed: true }) },
    { id: 'monitor-unknown', title: 'a monitor that does not exist', kind: 'read', expect: { status: stated('7'), code: open('error-codes') }, request: (ctx) => ethOnly(ctx, { method: 'GET', path: `/v1/monitors/${ctx.unknownId}`, keyed: true }) },
    { id: 'notifications-list', title: 'GET /v1/notifications', kind: 'read', expect: { status: stated('4.13'), answer: NOTIFICATION_LIST }, request: (ctx) => ethOnly(ctx, { method: 'GET', path: '/v1/notifications', keyed: true }) },
    {
      id: 'monitor-create-refused',
      title: 'a monitor creation (production refuses keys, 4.10)',
      kind: 'refused monitor creation',
      expect: { status: stated('4.10'), code: stated('7') },
      request: (ctx) => {
        // In the rehearsal environment this creation would succeed and change state.
        if (ctx.testEnvironment) return { skip: 'skipped: a test-environment key (svc_test_) would create a monitor there' };
        return ethOnly(ctx, { method: 'POST', path: '/v1/monitors', body: monitorBody(monitorKey), keyed: true });
      },
    },
  ];
}
