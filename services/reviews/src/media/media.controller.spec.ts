import { TestService } from '@app/testing';
import { member, Member, PNG_1PX, startReviews } from '../reviews.fixture';
import { MEDIA_MAX_BYTES } from '@app/contracts';

describe('media (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
  });

  afterAll(() => svc.close());

  const upload = (bytes: Buffer, filename = 'photo.png', contentType = 'image/png') =>
    svc.http().post('/api/media').set(ayse.auth).attach('file', bytes, { filename, contentType });

  it('stores a PNG and serves it publicly with immutable caching and an ETag', async () => {
    const res = await upload(PNG_1PX);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ id: expect.stringMatching(/^[a-f0-9]{24}$/), url: `/api/media/${res.body.data.id}` });

    const got = await svc.http().get(res.body.data.url).buffer(true);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(got.headers.etag).toMatch(/^".+"$/);
    expect(Buffer.compare(got.body as Buffer, PNG_1PX)).toBe(0);

    const again = await svc.http().get(res.body.data.url).set('If-None-Match', got.headers.etag);
    expect(again.status).toBe(304);
  });

  it('trusts the bytes, not the name: a JPEG called .png is served as JPEG', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
    const res = await upload(jpeg, 'fake.png', 'image/png');
    expect(res.status).toBe(201);
    const got = await svc.http().get(res.body.data.url);
    expect(got.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses anything that is not PNG, JPEG or WEBP with 415', async () => {
    const res = await upload(Buffer.from('<svg onload="alert(1)"/>'), 'x.png', 'image/png');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ success: false, message: 'Only PNG, JPEG or WEBP images are accepted', code: 'UNSUPPORTED_IMAGE_TYPE' });
  });

  it('accepts exactly 2 MB and refuses 2 MB + 1 byte with a 413 envelope', async () => {
    const body = (size: number) => Buffer.concat([PNG_1PX, Buffer.alloc(size - PNG_1PX.length)]);
    expect((await upload(body(MEDIA_MAX_BYTES))).status).toBe(201);
    const res = await upload(body(MEDIA_MAX_BYTES + 1));
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toBe('File too large');
  });

  it('refuses an upload without a file (400) or without a token (401)', async () => {
    const none = await svc.http().post('/api/media').set(ayse.auth).field('note', 'x');
    expect(none.status).toBe(400);
    const anon = await svc.http().post('/api/media').attach('file', PNG_1PX, 'a.png');
    expect(anon.status).toBe(401);
  });

  it('refuses a file under another field name, or a second file, with multer\'s 400s', async () => {
    const other = await svc.http().post('/api/media').set(ayse.auth).attach('evil', PNG_1PX, { filename: 'a.png', contentType: 'image/png' });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ success: false, message: 'Unexpected file field - evil', code: 'INVALID_UPLOAD' });
    const two = await svc
      .http()
      .post('/api/media')
      .set(ayse.auth)
      .attach('file', PNG_1PX, { filename: 'a.png', contentType: 'image/png' })
      .attach('file', PNG_1PX, { filename: 'b.png', contentType: 'image/png' });
    expect(two.status).toBe(400);
    expect(two.body).toEqual({ success: false, message: 'Too many files', code: 'INVALID_UPLOAD' });
  });

  it('answers unknown media with 404', async () => {
    const res = await svc.http().get('/api/media/000000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Media not found', code: 'MEDIA_NOT_FOUND' });
  });
});
