import { crc32 } from 'node:zlib';

/**
 * Checksummed framing of the store's JSON texts (journal lines, archive lines,
 * the snapshot): an object `{…}` is written as `{…,"crc":"xxxxxxxx"}`, the CRC-32
 * (zlib's) of every byte before `,"crc":`. The text stays JSON, and the field has
 * a fixed length, so a reader finds it from the end without parsing. CRC-32 is
 * made for exactly this: it catches every burst of up to 32 flipped bits and any
 * other damage but for one chance in 2^32.
 */

const FIELD = ',"crc":"';
const CLOSE = '"}';
/** Bytes of `,"crc":"xxxxxxxx"}` at the end of a framed object. */
export const FRAME_SUFFIX_LENGTH = FIELD.length + 8 + CLOSE.length;
const FIELD_BYTES = Buffer.from(FIELD);
const CLOSE_BYTES = Buffer.from(CLOSE);

export const hex = (value: number) => value.toString(16).padStart(8, '0');

/** The CRC-32 of `data`, continuing `previous` (the checksum of the bytes before it). */
export const checksum = (data: string | Buffer, previous = 0): number => crc32(data, previous);

/** `objectText` (JSON of a non-empty object) with its checksum as the last field. */
export function frame(objectText: string): string {
  const body = objectText.slice(0, -1);
  return `${body}${FIELD}${hex(crc32(body))}${CLOSE}`;
}

/**
 * Whether `bytes[start, end)` is a framed object whose checksum matches
 * ('ok'), one whose checksum does not ('damaged'), or text with no checksum
 * field at its end ('unframed': a store written before checksums, or damage
 * to the field itself).
 */
export function checkFrame(bytes: Buffer, start: number, end: number): 'ok' | 'damaged' | 'unframed' {
  const suffix = end - FRAME_SUFFIX_LENGTH;
  if (suffix <= start || !bytes.subarray(suffix, suffix + FIELD_BYTES.length).equals(FIELD_BYTES) || !bytes.subarray(end - CLOSE_BYTES.length, end).equals(CLOSE_BYTES)) {
    return 'unframed';
  }
  const recorded = bytes.toString('latin1', suffix + FIELD_BYTES.length, end - CLOSE_BYTES.length);
  return recorded === hex(crc32(bytes.subarray(start, suffix))) ? 'ok' : 'damaged';
}
