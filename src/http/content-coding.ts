/**
 * Request bodies in a content coding (RFC 9110 §8.4): `Content-Encoding` lists the codings in the
 * order they were applied, so they are undone in reverse. Coding names are case-insensitive, and
 * `x-gzip` is gzip (§8.4.1.3). Every step is capped at the body limit, so a small compressed body
 * cannot inflate past it (a zip bomb stops at the limit, not in memory).
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';

type Decoder = (bytes: Buffer, options: ZlibOptions) => Promise<Buffer>;

const gunzipAsync = promisify(gunzip) as Decoder;
const inflateAsync = promisify(inflate) as Decoder;
const inflateRawAsync = promisify(inflateRaw) as Decoder;
const brotliAsync = promisify(brotliDecompress) as Decoder;

/**
 * `deflate` is the zlib format (RFC 9110 §8.4.1.2), but some clients send raw deflate data under
 * that name; read either rather than refuse a body the client meant as deflate.
 */
const inflateEither: Decoder = async (bytes, options) => {
  try {
    return await inflateAsync(bytes, options);
  } catch (error) {
    if ((error as { code?: string }).code !== 'Z_DATA_ERROR') throw error;
    return inflateRawAsync(bytes, options);
  }
};

/** Codings the sandbox decodes, by lower-cased name; `identity` is no transformation. */
const DECODERS: ReadonlyMap<string, Decoder | undefined> = new Map<string, Decoder | undefined>([
  ['identity', undefined],
  ['gzip', gunzipAsync],
  ['x-gzip', gunzipAsync],
  ['deflate', inflateEither],
  ['br', brotliAsync],
]);

export const SUPPORTED_CODINGS = [...DECODERS.keys()];

/**
 * More stacked codings than any client applies; the cap keeps the work per request bounded
 * (each step may produce up to the body limit).
 */
export const MAX_CODINGS = 3;

const PARAM = 'Content-Encoding';

/**
 * The header's codings in the order they were applied, lower-cased, `identity` left out. Throws 415
 * `unsupported_media_type` naming the first coding it cannot decode (`compress` included: nothing
 * in Node reads LZW, and no current client sends it).
 */
export function contentCodings(header: string | undefined): string[] {
  const codings = (header ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    // Empty list elements are allowed by the list syntax (RFC 9110 §5.6.1).
    .filter((name) => name !== '' && name !== 'identity');
  const unknown = codings.find((name) => !DECODERS.has(name));
  if (unknown !== undefined)
    throw new ApiError('unsupported_media_type', { param: PARAM, message: MESSAGES.unsupportedCoding(unknown, SUPPORTED_CODINGS) });
  if (codings.length > MAX_CODINGS)
    throw new ApiError('unsupported_media_type', { param: PARAM, message: MESSAGES.tooManyCodings(codings.length, MAX_CODINGS) });
  return codings;
}

/** Undoes `codings` (as returned by `contentCodings`), last applied first; no step may exceed `limitBytes`. */
export async function decodeContent(bytes: Buffer, codings: readonly string[], limitBytes: number, limitText: string): Promise<Buffer> {
  let decoded = bytes;
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS.get(coding);
    if (!decoder) continue;
    try {
      decoded = await decoder(decoded, { maxOutputLength: limitBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ApiError('bad_request', { message: MESSAGES.bodyTooLarge(limitText) });
      }
      throw new ApiError('bad_request', { param: PARAM, message: MESSAGES.corruptCoding(coding) });
    }
  }
  return decoded;
}
