/**
 * Reading a submission's body with its size limit: identity or gzip (`Content-Encoding: gzip`,
 * which `arcade-gym submit` sends for larger runs). The limit counts the JSON that will be
 * parsed, so a small compressed body cannot inflate past it, and the bytes on the wire too, so
 * a compressed body that inflates to little cannot be endless. Nothing past the limit is kept.
 */
import { ApiError } from './api-error';

/**
 * How much more of a plain body that passed the limit is read and thrown away, so that a client
 * still sending it gets to read the 413; past this the connection is dropped. (Cancelling the
 * body destroys the socket under Next.js, and a client mid-upload then sees a reset, not the answer.)
 */
const DRAIN_BYTES = 16 * 1024 * 1024;

export async function readSubmissionBody(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `A submission may be at most ${maxBytes} bytes of JSON; send fewer episodes per run`, { maxBytes });
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip')
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the run as plain or gzip-compressed JSON (got Content-Encoding "${encoding}")`);
  const declared = Number(request.headers.get('content-length'));
  // Refused unread: the server discards what the client goes on sending.
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return '';
  return encoding === 'gzip' ? readGzip(request.body, maxBytes, tooLarge) : readPlain(request.body, maxBytes, tooLarge);
}

async function readPlain(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => ApiError): Promise<string> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes + DRAIN_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (size <= maxBytes) parts.push(value);
  }
  if (size > maxBytes) throw tooLarge();
  return Buffer.concat(parts).toString('utf8');
}

async function readGzip(body: ReadableStream<Uint8Array<ArrayBuffer>>, maxBytes: number, tooLarge: () => ApiError): Promise<string> {
  let wire = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      transform(chunk, controller) {
        wire += chunk.byteLength;
        if (wire > maxBytes) throw tooLarge();
        controller.enqueue(chunk);
      },
    }),
  );
  const reader = counted.pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      // Not drained, unlike a plain body: inflating more of a body this large only costs more.
      if (size > maxBytes) throw tooLarge();
      parts.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    if (e instanceof ApiError) throw e;
    // The inflater's own error: the bytes are not a gzip stream.
    throw new ApiError('INVALID_JSON', `The body is not valid gzip: ${e instanceof Error ? e.message : String(e)}`);
  }
  return Buffer.concat(parts).toString('utf8');
}
