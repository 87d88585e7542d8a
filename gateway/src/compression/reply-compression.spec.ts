import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressReply, COMPRESS_MIN_BYTES, isCompressibleReply } from './reply-compression';

describe('compressReply', () => {
  const page = Buffer.from(JSON.stringify({ success: true, data: Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, content: 'Köpüğü güzel bir kahve makinesi.' })) }));
  const json = () => ({ 'content-type': 'application/json; charset=utf-8', 'content-length': String(page.length) });

  it('sends a large JSON reply as brotli to a client that takes it, with its length and Vary', () => {
    const headers: Record<string, string | string[] | undefined> = { ...json(), vary: 'Authorization' };
    const sent = compressReply('gzip, deflate, br', page, headers);
    expect(headers['content-encoding']).toBe('br');
    expect(headers['content-length']).toBe(String(sent.length));
    expect(headers.vary).toBe('Authorization, Accept-Encoding');
    expect(sent.length).toBeLessThan(page.length / 4);
    expect(brotliDecompressSync(sent).equals(page)).toBe(true);
  });

  it('sends gzip where brotli is not taken', () => {
    const headers: Record<string, string | string[] | undefined> = json();
    const sent = compressReply('gzip', page, headers);
    expect(headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(sent).equals(page)).toBe(true);
  });

  it('leaves a small reply, a client that takes no encoding, and a non-JSON reply as they are', () => {
    const small = Buffer.from(JSON.stringify({ success: true, data: 'x'.repeat(COMPRESS_MIN_BYTES - 40) }));
    const smallHeaders: Record<string, string | string[] | undefined> = json();
    expect(compressReply('br', small, smallHeaders)).toBe(small);
    expect(smallHeaders['content-encoding']).toBeUndefined();
    expect(smallHeaders.vary).toBe('Accept-Encoding');
    const plain: Record<string, string | string[] | undefined> = json();
    expect(compressReply(undefined, page, plain)).toBe(page);
    expect(plain['content-length']).toBe(String(page.length));
    const image: Record<string, string | string[] | undefined> = { 'content-type': 'image/png' };
    expect(compressReply('br', page, image)).toBe(page);
    expect(image['content-encoding']).toBeUndefined();
  });

  it('never encodes a reply twice', () => {
    const headers: Record<string, string | string[] | undefined> = { ...json(), 'content-encoding': 'gzip' };
    expect(compressReply('br', page, headers)).toBe(page);
    expect(headers['content-encoding']).toBe('gzip');
  });

  it('reads whole only a JSON or HTML reply with a body that may be large enough, for a client that takes an encoding', () => {
    const json = { 'content-type': 'application/json; charset=utf-8' };
    expect(isCompressibleReply('gzip', 200, json)).toBe(true);
    expect(isCompressibleReply('br', 400, { ...json, 'content-length': String(COMPRESS_MIN_BYTES) })).toBe(true);
    expect(isCompressibleReply('gzip', 200, { 'content-type': 'text/html; charset=utf-8' })).toBe(true);
    expect(isCompressibleReply('gzip', 200, { ...json, 'content-length': String(COMPRESS_MIN_BYTES - 1) })).toBe(false);
    expect(isCompressibleReply(undefined, 200, json)).toBe(false);
    expect(isCompressibleReply('identity', 200, json)).toBe(false);
    expect(isCompressibleReply('gzip', 204, json)).toBe(false);
    expect(isCompressibleReply('gzip', 304, json)).toBe(false);
    expect(isCompressibleReply('gzip', 200, { 'content-type': 'image/png' })).toBe(false);
    expect(isCompressibleReply('gzip', 200, { ...json, 'content-encoding': 'gzip' })).toBe(false);
  });
});
