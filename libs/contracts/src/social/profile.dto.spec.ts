import { ValidationPipe } from '@nestjs/common';
import { UpdateProfileDto } from './profile.dto';

// the services' pipe options (libs/platform/src/http/validation.ts)
const pipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true });
const accepts = (body: unknown) =>
  pipe.transform(body, { type: 'body', metatype: UpdateProfileDto }).then(
    () => true,
    () => false,
  );

describe('UpdateProfileDto.profile_image_url', () => {
  it('accepts the relative address an avatar upload returns', async () => {
    await expect(accepts({ profile_image_url: '/api/media/abc_DEF-123' })).resolves.toBe(true);
  });

  it('accepts null (clears the picture)', async () => {
    await expect(accepts({ profile_image_url: null })).resolves.toBe(true);
  });

  it('refuses an outside picture: pictures are uploads only (issue 45 §6)', async () => {
    for (const outside of ['https://cdn.example.com/a.png', 'http://localhost:3000/a.png', 'https://evil.example/track.png']) {
      await expect(accepts({ profile_image_url: outside })).resolves.toBe(false);
    }
  });

  it('refuses other schemes and other relative paths', async () => {
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/api/media/../auth/me', '/etc/passwd', 'ftp://x.example/a.png']) {
      await expect(accepts({ profile_image_url: bad })).resolves.toBe(false);
    }
  });
});
