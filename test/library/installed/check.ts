// Type-checked inside the project the packed tarball is installed into
// (test/library/package.test.ts): the declarations the package ships are
// what a TypeScript user compiles against.
import { startUnderstudy, type Understudy, type UnderstudyOptions } from 'understudy';
import { createClient, type V1Api } from 'understudy/client';
import { verifyDelivery, type Verdict } from 'understudy/webhook';

const options: UnderstudyOptions = { seed: 7, env: 'test', clock: 'frozen', limits: false };
const understudy: Understudy = await startUnderstudy(options);
const v1: V1Api = createClient({ baseUrl: understudy.url, key: understudy.keys.local_custody }).v1;
const now: string = understudy.clock.now();
const verdict: Verdict = verifyDelivery({}, '', { secret: 'whsec_x', nowSeconds: 0 });
// @ts-expect-error the clock is 'frozen' or 'realtime'
await startUnderstudy({ clock: 'paused' });
export { v1, now, verdict };
