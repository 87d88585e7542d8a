import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Keys derived from JWT_SECRET (HKDF, one label per use), so a copy of auth's store alone yields
 * neither TOTP secrets nor recovery codes. Rotating JWT_SECRET ends two-factor enrolments too.
 */
export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly hmacKey: Buffer;

  constructor(rootSecret: string) {
    this.encryptionKey = Buffer.from(hkdfSync('sha256', rootSecret, 'squadreviews', 'totp-secret', 32));
    this.hmacKey = Buffer.from(hkdfSync('sha256', rootSecret, 'squadreviews', 'recovery-code', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }

  /** Keyed hash of a short code (recovery codes have ~50 bits: a plain hash could be brute-forced offline). */
  mac(value: string): string {
    return createHmac('sha256', this.hmacKey).update(value).digest('hex');
  }
}

/** Reset tokens and login challenges are 256 random bits: a plain SHA-256 is enough to store them. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const randomToken = (): string => randomBytes(32).toString('base64url');
