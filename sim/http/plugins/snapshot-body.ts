import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { errors, ServiceError } from '../../domain/errors.ts';
import { charsetRefusal } from './json-body.ts';

/**
 * The body of PUT /sim/snapshot (an import), read as it streams. Parsing the
 * whole text at once would hold the event loop for seconds (a 234 MiB store
 * takes JSON.parse about 3 s), so each chunk is parsed as it arrives by a
 * streaming parser (@streamparser/json), and other requests are answered
 * between chunks. Bounds, each refused as soon as it is passed, before the
 * body is kept whole: the bytes (413), the objects and arrays (400: what a
 * document of `{}`s would cost in memory is bounded too), and a top level that
 * is not an object (400 at the first byte).
 */

/**
 * Bytes of one import: room for the largest store of normal use (the bench's
 * 20,000-run store exports 234 MiB: 1.6 times that), docs/decisions.md, "Store and telemetry".
 */
export const SNAPSHOT_BODY_LIMIT_BYTES = 384 * 1024 * 1024;

/** Objects and arrays of one import; the 20,000-run store holds 1.07 million. */
export const SNAPSHOT_CONTAINER_LIMIT = 4_000_000;

/**
 * Bytes parsed between two turns of the event loop. A socket hands over up to 32 reads of 64 KiB in
 * one turn, and parsing them all at once held other requests up 100 to 470 ms (issue 29). Measured
 * with a clock read sent again and again during the import of the bench's 234 MiB store (2 shared
 * cores, load 8 to 10): at 256 KiB a turn the reads' 99th percentile was 74 and 118 ms, at 64 KiB
 * (one socket read) 65 and 35 ms, and the import took no longer (27 to 35 s either way).
 */
const PARSED_BYTES_PER_TURN = 64 * 1024;

const tooLarge = () =>
  new ServiceError(413, 'invalid_input', `body: a snapshot import is at most ${SNAPSHOT_BODY_LIMIT_BYTES} bytes (384 MiB); this body is larger.`);
const notASnapshot = () => errors.invalidInput('body: not an understudy snapshot (a JSON object with format "understudy-snapshot", version 1, clock and store).');
const tooMany = () => errors.invalidInput(`body: a snapshot import holds at most ${SNAPSHOT_CONTAINER_LIMIT} objects and arrays; this one holds more.`);
const notJson = (at: number) => errors.invalidInput(`body: the request body is not valid JSON (near byte ${at}).`);
const cutShort = () => errors.invalidInput('content-length: the body ended before the length the header declares.');

/** Makes the snapshot parser the only one of `app` (the import route's own context). */
export function installSnapshotBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => readSnapshot(request, payload as IncomingMessage, done));
}

function readSnapshot(request: FastifyRequest, payload: IncomingMessage, done: (error: Error | null, body?: unknown) => void): void {
  const refused = charsetRefusal(request);
  const declared = Number(request.headers['content-length']);
  if (refused || declared > SNAPSHOT_BODY_LIMIT_BYTES) {
    done(refused ?? tooLarge());
    return;
  }
  const tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024 });
  const parser = new TokenParser({ paths: ['$'] });
  let received = 0;
  let parsedThisTurn = 0;
  let containers = 0;
  let document: unknown;
  let complete = false;
  tokenizer.onToken = (info) => {
    // The first token: a document that is not an object is refused at once, whatever its size.
    if (containers === 0 && info.token !== TokenType.LEFT_BRACE) throw notASnapshot();
    if ((info.token === TokenType.LEFT_BRACE || info.token === TokenType.LEFT_BRACKET) && ++containers > SNAPSHOT_CONTAINER_LIMIT) throw tooMany();
    parser.write(info);
  };
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) [document, complete] = [value, true];
  };
  // Once the document is whole the parser ends; a token after it is refused as not JSON.
  parser.onEnd = () => undefined;

  const finish = (error: Error | null) => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    if (error) done(error);
    else done(null, document);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > SNAPSHOT_BODY_LIMIT_BYTES) {
      finish(tooLarge());
      return;
    }
    try {
      tokenizer.write(chunk);
    } catch (error) {
      finish(error instanceof ServiceError ? error : notJson(received - chunk.length));
      return;
    }
    parsedThisTurn += chunk.length;
    if (parsedThisTurn >= PARSED_BYTES_PER_TURN) {
      // What arrives meanwhile waits in the stream's buffer (and then the socket's) until the next turn.
      parsedThisTurn = 0;
      payload.pause();
      setImmediate(() => payload.resume());
    }
  };
  const onEnd = () => {
    if (!Number.isNaN(declared) && received !== declared) {
      finish(cutShort());
      return;
    }
    try {
      if (!tokenizer.isEnded) tokenizer.end();
    } catch {
      finish(notJson(received));
      return;
    }
    finish(complete ? null : received === 0 ? notASnapshot() : notJson(received));
  };
  const onError = (error: Error) => finish(error);
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
