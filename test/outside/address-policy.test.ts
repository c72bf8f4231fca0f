import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addressPolicy, addressRefusal } from '../../sim/domain/deliveries/index.ts';
import { sendWebhook } from '../../sim/runtime/webhook-sender.ts';
import { ALICE, BOB, advance, cleanupAfterEach, createDestination, createMonitor, detail, ethKey, mine, notifications, simDeliveries, start, transfer, verify } from '../monitors/support.ts';

/**
 * Spec 6.2: private, loopback, link-local and metadata addresses are refused
 * at connection, and a refused address fails the delivery at once. Addresses
 * are written here as a stranger types them into a URL; the table judges what
 * the WHATWG URL parser makes of them (decimal, hex and octal IPv4, IPv4-mapped,
 * translated, NAT64 and 6to4 IPv6, where the embedded IPv4 address is judged).
 */
cleanupAfterEach();

const LOOPBACK = 'loopback-address-refused';
const PRIVATE = 'private-address-refused';
const LINK_LOCAL = 'link-local-address-refused';
const METADATA = 'metadata-address-refused';
const RESERVED = 'reserved-address-refused';

const TABLE: Array<[typed: string, refusal: string | null]> = [
  ['127.0.0.1', LOOPBACK],
  ['127.8.9.10', LOOPBACK],
  ['2130706433', LOOPBACK],
  ['0x7f000001', LOOPBACK],
  ['0177.0.0.1', LOOPBACK],
  ['127.1', LOOPBACK],
  ['0x7f.1', LOOPBACK],
  ['127.0.0.1.', LOOPBACK],
  ['[::1]', LOOPBACK],
  ['[0:0:0:0:0:0:0:1]', LOOPBACK],
  ['[::ffff:127.0.0.1]', LOOPBACK],
  ['[::FFFF:7F00:1]', LOOPBACK],
  ['[0:0:0:0:0:ffff:127.0.0.1]', LOOPBACK],
  ['[::ffff:0:127.0.0.1]', LOOPBACK],
  ['[64:ff9b::127.0.0.1]', LOOPBACK],
  ['[64:ff9b::7f00:1]', LOOPBACK],
  ['[2002:7f00:1::1]', LOOPBACK],
  ['10.1.2.3', PRIVATE],
  ['167772161', PRIVATE],
  ['[::ffff:a00:1]', PRIVATE],
  ['[::ffff:10.0.0.1]', PRIVATE],
  ['[64:ff9b::a00:1]', PRIVATE],
  ['172.16.0.1', PRIVATE],
  ['172.31.255.255', PRIVATE],
  ['192.168.1.1', PRIVATE],
  ['0xc0.0xa8.1.1', PRIVATE],
  ['100.64.0.1', PRIVATE],
  ['[fd12:3456::1]', PRIVATE],
  ['[fc00::1]', PRIVATE],
  ['[fec0::1]', PRIVATE],
  ['169.254.1.1', LINK_LOCAL],
  ['[::ffff:169.254.1.1]', LINK_LOCAL],
  ['[fe80::1]', LINK_LOCAL],
  ['169.254.169.254', METADATA],
  ['2852039166', METADATA],
  ['0xa9.0xfe.0xa9.0xfe', METADATA],
  ['[::ffff:169.254.169.254]', METADATA],
  ['[::ffff:a9fe:a9fe]', METADATA],
  ['[64:ff9b::a9fe:a9fe]', METADATA],
  ['[fd00:ec2::254]', METADATA],
  ['[fd00:ec2:0:0:0:0:0:254]', METADATA],
  ['0.0.0.0', RESERVED],
  ['0', RESERVED],
  ['[::]', RESERVED],
  ['[::ffff:0.0.0.0]', RESERVED],
  ['224.0.0.1', RESERVED],
  ['255.255.255.255', RESERVED],
  ['240.0.0.1', RESERVED],
  ['192.0.2.1', RESERVED],
  ['[ff02::1]', RESERVED],
  ['[2001:db8::1]', RESERVED],
  ['[::7f00:1]', RESERVED],
  ['[2001::1]', RESERVED],
  ['[100::1]', RESERVED],
  ['8.8.8.8', null],
  ['134744072', null],
  ['93.184.216.34', null],
  ['172.15.0.1', null],
  ['172.32.0.1', null],
  ['100.128.0.1', null],
  ['[2606:4700::1111]', null],
  ['[::ffff:8.8.8.8]', null],
  ['[64:ff9b::8.8.8.8]', null],
  ['[2002:808:808::1]', null],
];

const parsedHost = (typed: string) => new URL(`https://${typed}/hook`).hostname;

describe('address classification (ipaddr.js), over what the URL parser makes of each spelling', () => {
  it.each(TABLE)('production: https://%s/ is judged %s', (typed, refusal) => {
    expect(addressRefusal(parsedHost(typed), 'production'), `parsed as ${parsedHost(typed)}`).toBe(refusal);
  });

  it.each(TABLE)('test environment: https://%s/ is allowed if loopback, else judged as in production (%s)', (typed, refusal) => {
    expect(addressRefusal(parsedHost(typed), 'test')).toBe(refusal === LOOPBACK ? null : refusal);
  });

  it('text that is not an address fails closed', () => {
    expect(addressRefusal('localhost', 'test')).toBe(RESERVED);
    expect(addressRefusal('', 'production')).toBe(RESERVED);
  });
});

// A TCP server that counts connections and drops them: any count above 0 means a socket was opened.
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function countingServer(): Promise<{ port: number; connections: () => number }> {
  let count = 0;
  const onConnection = (socket: Socket) => {
    count += 1;
    socket.destroy();
  };
  const v4 = createServer(onConnection);
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  servers.push(v4);
  const port = (v4.address() as { port: number }).port;
  const v6 = createServer(onConnection);
  // ::1 too where the machine has it, so an IPv6 spelling would be counted as well.
  await new Promise<void>((resolve) => v6.once('error', () => resolve()).listen(port, '::1', () => (servers.push(v6), resolve())));
  return { port, connections: () => count };
}

describe('refused before connecting', () => {
  const LOOPBACK_SPELLINGS = ['127.0.0.1', '2130706433', '0x7f.1', '127.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::1]', 'localhost', 'LOCALHOST'];

  it('production: a destination at loopback, in any spelling or by name, is refused at verification and no socket is opened', async () => {
    const target = await countingServer();
    const sim = await start({ env: 'production' });
    const { accountId } = ethKey(sim);
    for (const host of LOOPBACK_SPELLINGS) {
      const { destination } = await createDestination(sim, accountId, `https://${host}:${target.port}/hook`);
      const attempt = await verify(sim, destination.id);
      expect(attempt.status).toBe(200);
      expect(attempt.body.destination, host).toMatchObject({ state: 'needs_verification', lastError: LOOPBACK });
    }
    const log = await simDeliveries(sim);
    expect(log.attempts.map((a) => [a.outcome, a.error])).toEqual(LOOPBACK_SPELLINGS.map(() => ['refused', LOOPBACK]));
    expect(target.connections()).toBe(0);
  });

  it('the sender itself refuses every spelling before a socket exists, over http and https', async () => {
    const target = await countingServer();
    const request = { headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000 };
    for (const host of LOOPBACK_SPELLINGS) {
      for (const scheme of ['http', 'https']) {
        const result = await sendWebhook({ ...request, url: `${scheme}://${host}:${target.port}/hook`, addressPolicy: addressPolicy('production') });
        expect(result, `${scheme}://${host}`).toEqual({ kind: 'refused', error: LOOPBACK });
      }
    }
    expect(target.connections()).toBe(0);
  });

  it('an IPv4-mapped metadata address on a monitor webhook fails the delivery at once: one refused attempt, no retries', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { webhookUrl: 'https://[::ffff:169.254.169.254]/latest' });
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const advanced = await advance(sim, { seconds: 300 });
    expect(advanced.processed.filter((j) => j.kind === 'delivery.attempt')).toEqual([]);
    const d = await detail(sim, key, monitor.id);
    expect(d.deliveries).toEqual([expect.objectContaining({ state: 'failed', attempts: [expect.objectContaining({ attempt: 1, outcome: 'refused', httpStatus: null, error: METADATA })] })]);
    const failed = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.delivery.failed');
    expect(failed.map((n) => n.event.lastError)).toEqual([METADATA]);
  });
});

describe('the URL rule uses the same classification', () => {
  it('test environment: http is accepted for localhost and every loopback spelling, and refused for other addresses', async () => {
    const sim = await start();
    const { accountId } = ethKey(sim);
    const post = (url: string) => sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url } });
    for (const host of ['localhost', 'LocalHost', '127.0.0.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
      const created = await post(`http://${host}:4020/hook`);
      expect(created.status, `${host}: ${JSON.stringify(created.body)}`).toBe(201);
    }
    for (const host of ['10.0.0.1', '[::ffff:a00:1]', '169.254.169.254', 'example.com', 'localhost.example.com']) {
      const refused = await post(`http://${host}/hook`);
      expect(refused.status, host).toBe(400);
      expect(refused.body.error.message).toMatch(/url.*https/);
    }
  });

  it('production: http is refused for every host, loopback spellings included', async () => {
    const sim = await start({ env: 'production' });
    const { accountId } = ethKey(sim);
    for (const host of ['localhost', '127.0.0.1', '[::ffff:7f00:1]']) {
      const refused = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url: `http://${host}:4020/hook` } });
      expect(refused.status, host).toBe(400);
      expect(refused.body.error.message).toMatch(/must use https/);
    }
  });
});
