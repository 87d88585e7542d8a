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

  it('accepts absolute http(s) URLs and null (clears the picture)', async () => {
    await expect(accepts({ profile_image_url: 'https://cdn.example.com/a.png' })).resolves.toBe(true);
    await expect(accepts({ profile_image_url: 'http://localhost:3000/a.png' })).resolves.toBe(true);
    await expect(accepts({ profile_image_url: null })).resolves.toBe(true);
  });

  it('refuses other schemes and other relative paths', async () => {
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/api/media/../auth/me', '/etc/passwd', 'ftp://x.example/a.png']) {
      await expect(accepts({ profile_image_url: bad })).resolves.toBe(false);
    }
  });
});
