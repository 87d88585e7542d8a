import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CryptoPlugin, generateSync, verifySync } from '@otplib/totp';
import { generateTOTP } from '@otplib/uri';

/*
 * otplib's TOTP (RFC 6238) with node:crypto and an RFC 4648 base32 of our own: the `otplib`
 * bundle loads ESM-only plugins (@scure/base) that jest's CommonJS runtime cannot require.
 */

const nodeCrypto: CryptoPlugin = {
  name: 'node',
  hmac: (algorithm, key, data) => createHmac(algorithm, key).update(data).digest(),
  randomBytes: (length) => randomBytes(length),
  constantTimeEqual: (a, b) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  },
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + ALPHABET[(value << (5 - bits)) & 31] : out;
}

function base32Decode(text: string): Uint8Array {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.toUpperCase().replace(/=+$/, '')) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** 160 random bits (RFC 4226's recommended length), base32 as authenticator apps expect. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

export const totpUri = (secret: string, issuer: string, label: string): string => generateTOTP({ issuer, label, secret });

/** The code an authenticator app shows at `epoch` (seconds). */
export const totpCode = (secret: string, epoch = Math.floor(Date.now() / 1000)): string =>
  generateSync({ secret: base32Decode(secret), crypto: nodeCrypto, epoch });

/** The time step of `code` if it is valid now (± `toleranceSeconds`) and newer than `afterStep`, else null. */
export function verifyTotp(secret: string, code: string, afterStep: number, toleranceSeconds: number): number | null {
  const result = verifySync({ secret: base32Decode(secret), token: code, crypto: nodeCrypto, epochTolerance: toleranceSeconds, afterTimeStep: afterStep });
  return result.valid ? result.timeStep : null;
}
